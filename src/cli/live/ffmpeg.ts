/**
 * ffmpeg for the terminal client (decoding mic files, reply audio, remuxing recordings):
 * `AVATAR_FFMPEG`, else the binary the npm package `@ffmpeg-installer/ffmpeg` ships.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

export function ffmpegBin(env: Record<string, string | undefined> = process.env): string {
  if (env.AVATAR_FFMPEG) return env.AVATAR_FFMPEG;
  return (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/** Run ffmpeg to completion; resolves with stdout, rejects with its last stderr line. */
export function ffmpeg(
  args: string[],
  opts: { input?: Uint8Array; signal?: AbortSignal } = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const p = spawn(ffmpegBin(), ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
      stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      signal: opts.signal,
    });
    if (opts.input) {
      p.stdin!.on('error', () => undefined);
      p.stdin!.end(opts.input);
    }
    const out: Buffer[] = [];
    let err = '';
    p.stdout!.on('data', (d: Buffer) => out.push(d));
    p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(err.trim().split('\n').pop() || `ffmpeg exited with ${code}`));
    });
  });
}
