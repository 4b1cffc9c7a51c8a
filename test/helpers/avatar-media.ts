/**
 * Test media made on the spot (never downloaded): WAV by hand (RIFF header + PCM16),
 * MP3, JPEG and WebP with the shipped ffmpeg, PNG from the persona fixtures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFfmpeg, writeAsync } from '../../src/media/ffmpeg.js';
import { FIXTURES_DIR } from '../../src/emulator/start.js';

/** A mono PCM16 WAV of a 220 Hz tone, `seconds` long. */
export function wav(seconds: number, sampleRate = 16_000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / sampleRate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** The same tone as MP3 (libmp3lame, no Xing header: duration comes from the frames). */
export function mp3(seconds: number): Promise<Buffer> {
  const input = wav(seconds);
  return runFfmpeg(
    [
      '-f',
      'wav',
      '-i',
      'pipe:0',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '64k',
      '-write_xing',
      '0',
      '-f',
      'mp3',
      'pipe:1',
    ],
    (stdin) => writeAsync(stdin, input),
  );
}

export const png = (): Buffer => readFileSync(join(FIXTURES_DIR, 'personas', 'leo', 'face.png'));

/** A photo-like test image (gradient test pattern) in jpeg or webp. */
export function image(format: 'jpeg' | 'webp' | 'gif'): Promise<Buffer> {
  const codec =
    format === 'jpeg'
      ? ['-c:v', 'mjpeg', '-f', 'image2']
      : format === 'webp'
        ? ['-c:v', 'libwebp', '-f', 'webp']
        : ['-f', 'gif'];
  return runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=400x500:rate=1',
    '-frames:v',
    '1',
    ...codec,
    'pipe:1',
  ]);
}

/** Bytes that start like a PNG but weigh `mb` megabytes (for the 10 MB limit). */
export function bigPng(mb: number): Buffer {
  const b = Buffer.alloc(Math.round(mb * 1024 * 1024));
  png().copy(b, 0, 0, 64);
  return b;
}
