import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFile } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { runFfmpeg as ffmpeg } from '../src/media/ffmpeg.js';
import { cli, isolatedEnv } from './helpers/cli.js';

/** `avatar demo` with nothing running: it starts its own emulator and leaves a playable MP4. */
describe('avatar demo', () => {
  it('speaks a synthesized question, shows the turn and reply, saves a playable demo.mp4 and prints timings', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'avatar-demo-'));
    const r = await cli(['demo'], isolatedEnv(), cwd);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^avatar demo: started an in-process emulator at http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(r.stdout).toMatch(
      /question \(synthesized, [\d.]+ s of 16 kHz speech\): "Hello! What can you help me with\?"/,
    );
    expect(r.stdout).toMatch(/\] you: \S.*\n.*\] avatar: \S/);
    expect(r.stdout).toMatch(
      /\] ended: the requested turns are done after [\d.]+ s, 1 turn; seat released/,
    );
    expect(r.stdout).toMatch(
      /timings: mint [\d.]+ m?s · connect [\d.]+ m?s · first media [\d.]+ m?s after the connect began · turn [\d.]+ m?s after the question ended/,
    );
    const file = join(cwd, 'demo.mp4');
    expect(existsSync(file)).toBe(true);
    // The size it reports is the file's, not the bytes received before the remux.
    const kb = (statSync(file).size / 1024).toFixed(1);
    expect(r.stdout).toContain(`recorded ${file} (${kb} KB)`);
    // Playable: both tracks decode from start to end.
    const meta = await parseFile(file);
    expect(meta.format.duration).toBeGreaterThan(3);
    const frames = await ffmpeg([
      '-i',
      file,
      '-map',
      '0:v',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-s',
      '16x16',
      'pipe:1',
    ]);
    expect(frames.length / 256).toBeGreaterThan(meta.format.duration! * 20);
    const audio = await ffmpeg([
      '-i',
      file,
      '-map',
      '0:a',
      '-f',
      's16le',
      '-ac',
      '1',
      '-ar',
      '16000',
      'pipe:1',
    ]);
    expect(audio.length / 32000).toBeGreaterThan(meta.format.duration! - 1);
  }, 120_000);
});
