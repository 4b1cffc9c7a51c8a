/**
 * Worker-thread entry for flite: synthesis is synchronous WASM (up to a few hundred ms for a
 * long sentence on a busy machine), so it runs here, off the thread that paces every
 * session's media. Messages: `{ id, args, text, wav }` -> `{ id, wav, stdout }` or `{ id, error }`.
 */
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fliteStats, prepareFlite, runFlite } from './wasi-flite.js';

// Named, where the system allows it: `top -H` and the edge bench's CPU split show the
// synthesis threads as `flite` (Linux: a thread may rename itself).
try {
  writeFileSync('/proc/thread-self/comm', 'flite');
} catch {
  // Not Linux, or /proc is not mounted: the thread keeps Node's name.
}

void prepareFlite();

/** One synthesis; every failure is answered to the caller, so the promise never rejects. */
async function answer(m: {
  id: number;
  args: string[];
  text: string;
  wav: boolean;
}): Promise<void> {
  try {
    const r = await runFlite(m.args, m.text, m.wav);
    const wav = r.wav ? new Uint8Array(r.wav) : null;
    parentPort!.postMessage({ id: m.id, wav, stdout: r.stdout }, wav ? [wav.buffer] : []);
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
}

/**
 * A box at start (warmFlite) has each worker say two lines nobody hears: V8 runs a new WASM
 * module's code from its quick baseline compile and compiles the hot functions properly
 * only once they have run, so the first replies after a start would be made at a fraction
 * of the speed (docs/media.md "Warm voices"): one line in `slt` (the clustergen voices'
 * filter) and one in `kal16` (the diphone voices). No answer is sent.
 */
const WARM_UP: [string[], string][] = [
  [['-voice', 'slt'], 'Hello there, how are you today?'],
  [['-voice', 'kal16'], 'Hello there.'],
];

/** Messages are handled one after another: one run at a time, on the thread's one instance. */
let chain: Promise<unknown> = Promise.resolve();
parentPort?.on(
  'message',
  (m: { warm?: true; stats?: true; id: number; args: string[]; text: string; wav: boolean }) => {
    chain = chain.then(async () => {
      if (m.stats) return parentPort!.postMessage({ stats: { ...fliteStats } });
      if (!m.warm) return answer(m);
      for (const [args, text] of WARM_UP) await runFlite(args, text, true).catch(() => {});
    });
    // One message that fails must not stop the ones after it.
    chain = chain.catch(() => {});
  },
);
