import { spawn } from 'node:child_process';
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

/**
 * Run ffmpeg with args, feeding `input` to stdin; resolves with stdout bytes. An aborted
 * `signal` kills the child (SIGTERM) and rejects with an AbortError.
 */
export function runFfmpeg(
  args: string[],
  input?: (stdin: NodeJS.WritableStream) => Promise<void> | void,
  opts: { signal?: AbortSignal } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const p = spawn(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    const out: Buffer[] = [];
    let err = '';
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`ffmpeg exited ${code}: ${err.trim()}`));
    });
    p.stdin.on('error', () => {});
    if (input) {
      Promise.resolve(input(p.stdin))
        .then(() => p.stdin.end())
        .catch((e) => {
          p.kill();
          reject(e);
        });
    } else p.stdin.end();
  });
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
