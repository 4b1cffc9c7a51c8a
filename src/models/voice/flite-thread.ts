/**
 * Runs flite on a small pool of worker threads (flite-worker.ts) so synthesis never blocks
 * the event loop that paces live media. Workers start on first use or at `warmFlite()`
 * (a box calls it at start: each worker compiles the 21 MB module, ~1 s, which a first
 * reply must not wait for), are unref'd while idle (they never keep the process alive) and each runs one call at a time from a queue kept here, where a reply's first words
 * (`urgent`) go ahead of later sentences: one session's long reply does not hold up
 * another's first words, and a sentence's two flite runs (audio and the word probe,
 * flite.ts) run side by side. Where the compiled worker file is absent (tests
 * running the TypeScript sources), calls run in-thread instead.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runFlite, type FliteRun } from './wasi-flite.js';

interface Job {
  args: string[];
  text: string;
  wav: boolean;
  resolve: (r: FliteRun) => void;
  reject: (e: Error) => void;
}
interface Slot {
  w: Worker;
  /** The one call this worker is running (one at a time, so urgent calls can jump the queue). */
  job: Job | null;
}

/**
 * Workers in the pool: one per core, at most four (each holds the compiled module, ~60 MB,
 * and an instance with its copy, ~35 MB). Voice is most of a talking session's CPU (~13 ms
 * per second of speech with `slt`, docs/media.md), so a box of 200 sessions on a laptop
 * needs more than two cores of synthesis; on a 2-core machine the two workers and the
 * thread that paces media share the cores.
 */
export const FLITE_THREADS = Math.max(1, Math.min(4, availableParallelism()));
const slots: (Slot | null)[] = Array.from({ length: FLITE_THREADS }, () => null);
/** Calls waiting for a worker: urgent ones (a reply's first words) first, then in order. */
const urgent: Job[] = [];
const queue: Job[] = [];
const WORKER_FILE = new URL('./flite-worker.js', import.meta.url);
const canThread = existsSync(fileURLToPath(WORKER_FILE));

function start(i: number): Slot {
  const w = new Worker(WORKER_FILE);
  const slot: Slot = { w, job: null };
  w.unref();
  // An unref() before the worker is online does not hold (the process would never exit).
  w.once('online', () => slot.job || w.unref());
  w.on('message', (m: { wav?: Uint8Array | null; stdout?: string; error?: string }) => {
    const job = slot.job;
    slot.job = null;
    dispatch();
    if (!job) return;
    if (m.error) job.reject(new Error(m.error));
    else
      job.resolve({
        wav: m.wav ? Buffer.from(m.wav.buffer, m.wav.byteOffset, m.wav.byteLength) : null,
        stdout: m.stdout ?? '',
      });
  });
  const fail = (e: Error) => {
    if (slots[i] === slot) slots[i] = null;
    slot.job?.reject(e);
    slot.job = null;
    dispatch();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`flite worker exited ${code}`)));
  return slot;
}

/** Hand waiting calls to idle workers; a worker with nothing to do never keeps Node alive. */
function dispatch(): void {
  for (let i = 0; i < slots.length; i++) {
    const slot = (slots[i] ??= start(i));
    if (slot.job) continue;
    const job = urgent.shift() ?? queue.shift();
    if (!job) {
      slot.w.unref();
      continue;
    }
    slot.job = job;
    slot.w.ref();
    slot.w.postMessage({ id: 0, args: job.args, text: job.text, wav: job.wav });
  }
}

/** Start the workers (and their WASM compiles) ahead of the first synthesis. */
export function warmFlite(): void {
  if (canThread) for (let i = 0; i < slots.length; i++) slots[i] ??= start(i);
}

/** Whether calls go to worker threads (false when running from sources). */
export const fliteThreaded = canThread;

/** Run flite off the event loop; `first` calls (a reply's first words) go ahead of queued ones. */
export function runFliteOffThread(
  args: string[],
  text: string,
  wav = true,
  first = false,
): Promise<FliteRun> {
  if (!canThread) return runFlite(args, text, wav);
  return new Promise((resolve, reject) => {
    (first ? urgent : queue).push({ args, text, wav, resolve, reject });
    dispatch();
  });
}
