/**
 * Runs flite on a small pool of worker threads (flite-worker.ts) so synthesis never blocks
 * the event loop that paces live media. Workers start on first use or at `warmFlite()`
 * (a box calls it at start: each worker compiles the 21 MB module, ~1 s, which a first
 * reply must not wait for), are unref'd while idle (they never keep the process alive) and
 * each runs one call at a time from a queue kept here, earliest deadline first: a call says
 * when its audio is needed (`neededInMs`: 0 for a reply's first words, someone is waiting;
 * the time left in the chunk on air for the next one), so in a burst of replies every first
 * chunk goes ahead of the rest of the sentences, and the rest still come before they are
 * heard (docs/media.md "Synthesis, earliest deadline first"). A call with no deadline (a
 * `speak` file, a transcription's voice) is due BATCH_SLACK_MS after it was asked: live
 * replies go first, and it is never starved. Where the compiled worker file is absent
 * (tests running the TypeScript sources), calls run in-thread instead.
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
  /** The one call this worker is running (one at a time, so an earlier deadline can jump the queue). */
  job: Job | null;
  /** Callers waiting for the worker's counts (workerStats). */
  stats: { resolve: (s: WorkerStats) => void; reject: (e: Error) => void }[];
}

/** What a worker has done: WASM instances it made (one in steady state) and runs. */
export interface WorkerStats {
  instances: number;
  runs: number;
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
/**
 * Items each due at a time, taken earliest first; items due at the same time in the order
 * they came. It holds a few dozen at most (calls waiting for a worker): a scan.
 */
export class DeadlineQueue<T> {
  private readonly items: { due: number; seq: number; item: T }[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(item: T, due: number): void {
    this.items.push({ due, seq: this.seq++, item });
  }

  take(): T | undefined {
    let best = -1;
    for (let i = 0; i < this.items.length; i++) {
      const j = this.items[i]!;
      const b = this.items[best];
      if (!b || j.due < b.due || (j.due === b.due && j.seq < b.seq)) best = i;
    }
    return best < 0 ? undefined : this.items.splice(best, 1)[0]!.item;
  }
}

/** Calls waiting for a worker. */
const queue = new DeadlineQueue<Job>();
/**
 * How long after it was asked a call with no deadline is due: later than any live reply's
 * words (due now, or within the few seconds of the chunk on air), soon enough that a
 * steady stream of replies never starves it.
 */
export const BATCH_SLACK_MS = 5000;

const WORKER_FILE = new URL('./flite-worker.js', import.meta.url);
const canThread = existsSync(fileURLToPath(WORKER_FILE));

function start(i: number): Slot {
  const w = new Worker(WORKER_FILE);
  const slot: Slot = { w, job: null, stats: [] };
  w.unref();
  // An unref() before the worker is online does not hold (the process would never exit).
  w.once('online', () => idle(slot) && w.unref());
  w.on(
    'message',
    (m: { wav?: Uint8Array | null; stdout?: string; error?: string; stats?: WorkerStats }) => {
      if (m.stats) {
        for (const waiting of slot.stats.splice(0)) waiting.resolve(m.stats);
        if (idle(slot)) slot.w.unref();
        return;
      }
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
    },
  );
  const fail = (e: Error) => {
    if (slots[i] === slot) slots[i] = null;
    slot.job?.reject(e);
    slot.job = null;
    for (const waiting of slot.stats.splice(0)) waiting.reject(e);
    dispatch();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`flite worker exited ${code}`)));
  return slot;
}

/** Nothing asked of the worker: no call running, no counts awaited (it may let Node exit). */
const idle = (slot: Slot) => !slot.job && slot.stats.length === 0;

/** Hand waiting calls to idle workers; a worker with nothing to do never keeps Node alive. */
function dispatch(): void {
  for (let i = 0; i < slots.length; i++) {
    const slot = (slots[i] ??= start(i));
    if (slot.job) continue;
    const job = queue.take();
    if (!job) {
      if (idle(slot)) slot.w.unref();
      continue;
    }
    slot.job = job;
    slot.w.ref();
    slot.w.postMessage({ id: 0, args: job.args, text: job.text, wav: job.wav });
  }
}

/**
 * Start the workers (and their WASM compiles) ahead of the first synthesis, and have each
 * say two lines nobody hears (`slt`, `kal16`), so the voices' hot code is compiled before the first reply
 * (flite-worker.ts). A worker started by a first call (a `speak` from the CLI) skips that.
 */
export function warmFlite(): void {
  if (!canThread) return;
  for (let i = 0; i < slots.length; i++) {
    if (slots[i]) continue;
    const slot = (slots[i] = start(i));
    slot.w.postMessage({ warm: true });
  }
}

/**
 * Each started worker's counts, once the work it has been given is done (tests read
 * this: a worker keeps one instance however its first calls arrive). Rejects if a worker
 * exits first.
 */
export function workerStats(): Promise<WorkerStats[]> {
  return Promise.all(
    slots
      .filter((s): s is Slot => !!s)
      .map(
        (slot) =>
          new Promise<WorkerStats>((resolve, reject) => {
            slot.stats.push({ resolve, reject });
            slot.w.ref();
            slot.w.postMessage({ stats: true });
          }),
      ),
  );
}

/** Whether calls go to worker threads (false when running from sources). */
export const fliteThreaded = canThread;

/**
 * Run flite off the event loop. `neededInMs`: how soon the audio is needed (0: now, a reply's
 * first words); absent, the call is due BATCH_SLACK_MS from now.
 */
export function runFliteOffThread(
  args: string[],
  text: string,
  wav = true,
  neededInMs?: number,
): Promise<FliteRun> {
  if (!canThread) return runFlite(args, text, wav);
  const due = performance.now() + Math.max(0, neededInMs ?? BATCH_SLACK_MS);
  return new Promise((resolve, reject) => {
    queue.push({ args, text, wav, resolve, reject }, due);
    dispatch();
  });
}
