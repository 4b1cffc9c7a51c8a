/**
 * An ffmpeg that hangs on one kind of call: a wrapper script that records its pid and
 * sleeps when its arguments contain `pattern`, and runs the real ffmpeg for everything else.
 * `use()` makes it the ffmpeg (`AVATAR_FFMPEG`, read at each spawn); vitest runs each file in
 * its own process, so the variable stays within the file.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { ffmpegPath } from '../../src/media/ffmpeg.js';

export interface HangingFfmpeg {
  /** Make this script the ffmpeg every later spawn runs. */
  use(): void;
  /** Pids of the calls that hung, in order. */
  pids(): number[];
  alive(pid: number): boolean;
  /** Bounded polling for real background work (a child process starting or exiting). */
  until(ok: () => boolean, tries?: number): Promise<void>;
}

export function hangingFfmpeg(pattern: string): HangingFfmpeg {
  const real = ffmpegPath();
  const dir = mkdtempSync(join(tmpdir(), 'avatar-hang-ffmpeg-'));
  const pidFile = join(dir, 'pids');
  const script = join(dir, 'ffmpeg');
  writeFileSync(
    script,
    `#!/bin/sh\ncase "$*" in *${pattern}*) echo $$ >> "${pidFile}"; exec sleep 600;; esac\nexec "${real}" "$@"\n`,
  );
  chmodSync(script, 0o755);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    use: () => {
      process.env.AVATAR_FFMPEG = script;
    },
    pids: () =>
      existsSync(pidFile)
        ? readFileSync(pidFile, 'utf8').trim().split('\n').filter(Boolean).map(Number)
        : [],
    alive(pid) {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    },
    async until(ok, tries = 400) {
      for (let i = 0; i < tries && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
    },
  };
}
