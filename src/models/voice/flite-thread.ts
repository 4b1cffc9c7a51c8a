/**
 * Runs flite on one shared worker thread (flite-worker.ts) so synthesis never blocks the
 * event loop that paces live media. The worker starts on first use, is unref'd (it never
 * keeps the process alive) and serves calls in order. Where the compiled worker file is
 * absent (tests running the TypeScript sources), calls run in-thread instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runFlite, type FliteRun } from './wasi-flite.js';

let worker: Worker | null = null;
let seq = 0;
const pending = new Map<number, { resolve: (r: FliteRun) => void; reject: (e: Error) => void }>();
const WORKER_FILE = new URL('./flite-worker.js', import.meta.url);
const canThread = existsSync(fileURLToPath(WORKER_FILE));

function start(): Worker {
  const w = new Worker(WORKER_FILE);
  w.unref();
  w.on('message', (m: { id: number; wav?: Uint8Array | null; stdout?: string; error?: string }) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (pending.size === 0) w.unref();
    if (m.error) p.reject(new Error(m.error));
    else p.resolve({ wav: m.wav ? Buffer.from(m.wav.buffer, m.wav.byteOffset, m.wav.byteLength) : null, stdout: m.stdout ?? '' });
  });
  const fail = (e: Error) => {
    worker = null;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`flite worker exited ${code}`)));
  return w;
}

/** Start the worker (and its WASM compile, ~1 s) ahead of the first synthesis. */
export function warmFlite(): void {
  if (canThread) worker ??= start();
}

/** Whether calls go to the worker thread (false when running from sources). */
export const fliteThreaded = canThread;

export function runFliteOffThread(args: string[], text: string, wav = true): Promise<FliteRun> {
  if (!canThread) return runFlite(args, text, wav);
  worker ??= start();
  const w = worker;
  w.ref();
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, args, text, wav });
  });
}
