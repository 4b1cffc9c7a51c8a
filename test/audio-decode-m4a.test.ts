import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFfmpeg } from '../src/media/ffmpeg.js';
import { decodeTo16k } from '../src/emulator/inference/tasks/audio-codec.js';

/**
 * Issue 19 item 3: an ordinary .m4a as ffmpeg (and phones) write it keeps its index (moov)
 * at the end; read through a pipe, ffmpeg cannot seek back to it and the upload decoded to
 * nothing, so /compat-a/v1/audio/transcriptions answered empty text.
 */
describe('decoding an uploaded .m4a with its index at the end', () => {
  it('gives all of its audio', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'avatar-m4a-')), 'tone.m4a');
    // ffmpeg's defaults: AAC in MP4, moov written after the media (no +faststart)
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=30',
      '-c:a',
      'aac',
      '-y',
      file,
    ]);
    const bytes = readFileSync(file);
    const moov = bytes.indexOf('moov');
    const mdat = bytes.indexOf('mdat');
    expect(moov).toBeGreaterThan(mdat); // the index really is at the end
    const pcm = await decodeTo16k(bytes);
    expect(pcm.length / 16_000).toBeGreaterThan(29);
  });
});
