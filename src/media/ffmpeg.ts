import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Where ffmpeg is: `AVATAR_FFMPEG`, else the binary shipped by the npm package
 * `@ffmpeg-installer/ffmpeg` (a registry package; nothing is downloaded at run time).
 */
export function ffmpegPath(): string {
  if (process.env.AVATAR_FFMPEG) return process.env.AVATAR_FFMPEG;
  const require = createRequire(import.meta.url);
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** What `runFfmpeg` prepends: no banner, errors only on stderr. */
const QUIET = ['-hide_banner', '-loglevel', 'error'];

/** A live encoder's start: quiet, no stdin keys, and its input read at once (no probing). */
export const LIVE_INPUT = [...QUIET, '-nostdin', '-probesize', '32', '-analyzeduration', '0'];

/** The one H.264 profile of every clip and stream (what a browser's MSE plays). */
export const H264_BASELINE = ['-c:v', 'libx264', '-profile:v', 'baseline', '-level', '3.0'];

export interface SpawnFfmpegOptions {
  /** A fourth pipe (fd 3): a second raw input beside stdin (the encoders' audio). */
  fd3?: boolean;
  /** `ignore` when ffmpeg writes a file and stdout carries nothing. */
  stdout?: 'pipe' | 'ignore';
  signal?: AbortSignal;
  /** Its own process group (a Ctrl-C in the terminal must not kill it before we close it). */
  detached?: boolean;
}

/**
 * The one place ffmpeg is started (`args` exactly as given). Errors on its pipes (it may
 * exit before reading all its input) are swallowed here; `ffmpegDone` says how it ended.
 */
export function spawnFfmpeg(args: string[], opts: SpawnFfmpegOptions = {}): ChildProcess {
  const stdio: ('pipe' | 'ignore')[] = ['pipe', opts.stdout ?? 'pipe', 'pipe'];
  if (opts.fd3) stdio.push('pipe');
  const p = spawn(ffmpegPath(), args, {
    stdio,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.detached ? { detached: true } : {}),
  });
  for (const s of p.stdio) (s as NodeJS.EventEmitter | null)?.on('error', () => {});
  return p;
}

/**
 * Resolves when ffmpeg exits 0; rejects with `ffmpeg exited <code>: <stderr>` (its first
 * 300 characters) otherwise, or with the spawn error. Collects stderr from now on.
 */
export function ffmpegDone(p: ChildProcess): Promise<void> {
  let err = '';
  p.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    p.on('error', reject);
    p.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`ffmpeg exited ${code ?? signal}: ${err.trim().slice(0, 300)}`)),
    );
  });
}

/**
 * Run ffmpeg (quiet) with args to completion, feeding `input` to stdin (bytes, or a
 * function that writes them); resolves with stdout bytes. An aborted `signal` kills the
 * child (SIGTERM) and rejects with an AbortError.
 */
export function runFfmpeg(
  args: string[],
  input?: Uint8Array | ((stdin: NodeJS.WritableStream) => Promise<void> | void),
  opts: { signal?: AbortSignal } = {},
): Promise<Buffer> {
  const p = spawnFfmpeg([...QUIET, ...args], opts);
  const out: Buffer[] = [];
  p.stdout!.on('data', (d: Buffer) => out.push(d));
  const done = ffmpegDone(p).then(() => Buffer.concat(out));
  if (!input) p.stdin!.end();
  else if (input instanceof Uint8Array) p.stdin!.end(input);
  else
    return Promise.all([
      Promise.resolve(input(p.stdin!)).then(
        () => void p.stdin!.end(),
        (e: unknown) => {
          p.kill();
          throw e;
        },
      ),
      done,
    ]).then(([, b]) => b);
  return done;
}

/**
 * Write a buffer and resolve once the stream is done with it (handed to the OS, or the
 * stream failed): the caller may then overwrite it. Live encoders reuse one frame buffer
 * this way instead of copying 250 KB per frame.
 */
export function writeFlushed(stream: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    stream.write(chunk, () => resolve());
  });
}

/** Write a buffer to a stream, honouring back-pressure. */
export function writeAsync(stream: NodeJS.WritableStream, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(chunk)) resolve();
    else stream.once('drain', resolve);
  });
}
