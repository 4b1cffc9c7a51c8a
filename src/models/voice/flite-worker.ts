/**
 * Worker-thread entry for flite: synthesis is synchronous WASM (up to a few hundred ms for a
 * long sentence on a busy machine), so it runs here, off the thread that paces every
 * session's media. Messages: `{ id, args, text, wav }` -> `{ id, wav, stdout }` or `{ id, error }`.
 */
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { prepareFlite, runFlite } from './wasi-flite.js';

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

parentPort?.on(
  'message',
  (m: { id: number; args: string[]; text: string; wav: boolean }) => void answer(m),
);
