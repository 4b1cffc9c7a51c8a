/**
 * Media for the generation tests, made on the spot: voice references spoken by flite
 * (the recogniser-friendly synthesizer, MEDIA-NOTES) in wav/mp3/m4a/flac/ogg, solid-colour
 * faces, and an MP4 reader built on the shipped ffmpeg (`ffmpeg -i` stream lines, last
 * frame, decoded audio): the ffprobe-equivalent the issue asks for.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudio } from '../../src/media/audio.js';
import { ffmpegPath, runFfmpeg, writeAsync } from '../../src/media/ffmpeg.js';
import type { VoiceShape } from '../../src/models/voice.js';
import { FliteVoice, writeWav } from '../../src/models/voice/index.js';

const flite = new FliteVoice();

/** A spoken voice reference as a 16 kHz WAV file. */
export async function spokenWav(text: string, shape: VoiceShape): Promise<Buffer> {
  const s = await flite.synthesize(text, { shape });
  return writeWav(s.samples, s.sampleRate);
}

const CODECS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'],
  m4a: ['-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  ogg: ['-c:a', 'libvorbis', '-f', 'ogg'],
};

/** The same audio in another container (m4a is written to a file: its index goes last). */
export async function transcode(
  wav: Buffer,
  format: 'mp3' | 'm4a' | 'flac' | 'ogg',
): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'gen-audio-'));
  try {
    const out = join(dir, `out.${format}`);
    await runFfmpeg(['-f', 'wav', '-i', 'pipe:0', ...CODECS[format]!, '-y', out], (stdin) =>
      writeAsync(stdin, wav),
    );
    const { readFileSync } = await import('node:fs');
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A solid-colour PNG face (`color` as ffmpeg names it: red, 0x2040c0...). */
export function solidPng(color: string, w = 352, h = 480): Promise<Buffer> {
  return runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=${w}x${h}`,
    '-frames:v',
    '1',
    '-f',
    'image2',
    '-c:v',
    'png',
    'pipe:1',
  ]);
}

export const dataUri = (type: string, bytes: Buffer) =>
  `data:${type};base64,${bytes.toString('base64')}`;

export interface Mp4Info {
  durationS: number;
  video: { codec: string; width: number; height: number; fps: number } | null;
  audio: { codec: string; sampleRate: number } | null;
  /** `moov` before `mdat` (faststart). */
  faststart: boolean;
}

function ffmpegInfo(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(ffmpegPath(), ['-hide_banner', '-i', file], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('close', () => resolve(err));
  });
}

/** Top-level MP4 box types in order. */
export function topBoxes(mp4: Buffer): string[] {
  const out: string[] = [];
  for (let off = 0; off + 8 <= mp4.length; ) {
    let size = mp4.readUInt32BE(off);
    if (size === 1) size = Number(mp4.readBigUInt64BE(off + 8));
    out.push(mp4.toString('ascii', off + 4, off + 8));
    if (size < 8) break;
    off += size;
  }
  return out;
}

export async function mp4Info(mp4: Buffer): Promise<Mp4Info> {
  const dir = mkdtempSync(join(tmpdir(), 'gen-mp4-'));
  try {
    const file = join(dir, 'in.mp4');
    writeFileSync(file, mp4);
    const text = await ffmpegInfo(file);
    const d = /Duration: (\d+):(\d+):([\d.]+)/.exec(text);
    const v = /Stream #\d+:\d+.*Video: (\w+).*?, (\d+)x(\d+).*?, ([\d.]+) fps/.exec(text);
    const a = /Stream #\d+:\d+.*Audio: (\w+).*?, (\d+) Hz/.exec(text);
    const boxes = topBoxes(mp4);
    return {
      durationS: d ? Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]) : NaN,
      video: v
        ? { codec: v[1]!, width: Number(v[2]), height: Number(v[3]), fps: Number(v[4]) }
        : null,
      audio: a ? { codec: a[1]!, sampleRate: Number(a[2]) } : null,
      faststart: boxes.indexOf('moov') >= 0 && boxes.indexOf('moov') < boxes.indexOf('mdat'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RGB24 frames of an MP4 at a small size (for colour and motion checks). */
export async function frames(mp4: Buffer, w: number, h: number): Promise<Buffer[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gen-frames-'));
  try {
    const file = join(dir, 'in.mp4');
    writeFileSync(file, mp4);
    const raw = await runFfmpeg([
      '-i',
      file,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${w}x${h}`,
      'pipe:1',
    ]);
    const size = w * h * 3;
    const out: Buffer[] = [];
    for (let o = 0; o + size <= raw.length; o += size) out.push(raw.subarray(o, o + size));
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Mean R, G, B of an RGB24 frame. */
export function meanColor(frame: Buffer): [number, number, number] {
  const sum = [0, 0, 0];
  for (let i = 0; i < frame.length; i += 3) for (let c = 0; c < 3; c++) sum[c]! += frame[i + c]!;
  const n = frame.length / 3;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** The MP4's audio track as 16 kHz mono PCM. */
export const mp4Audio = async (mp4: Buffer) => ({
  samples: await decodeAudio(mp4, 16_000),
  sampleRate: 16_000,
});

/** Every video frame of an MP4 (given whole) as packed RGB24, one per coded frame (no rate conversion). */
export function rgbFrames(mp4: Buffer): Promise<Buffer> {
  return runFfmpeg(
    [
      '-i',
      'pipe:0',
      '-map',
      '0:v:0',
      '-vsync',
      '0',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    (s) => writeAsync(s, mp4),
  );
}
