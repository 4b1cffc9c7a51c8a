import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../../../media/ffmpeg.js';
import { resample, writeWav } from '../../../models/voice/pcm.js';

/**
 * Audio formats of compat-a audio/speech (spec 4.12: wav, mp3, opus, flac; aac and pcm as
 * OpenAI also offers). WAV is written directly; the rest are encoded by ffmpeg from npm.
 * `pcm` is raw 24 kHz 16-bit little-endian mono, as OpenAI documents it.
 */
export const SPEECH_FORMATS = {
  mp3: { type: 'audio/mpeg', args: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'] },
  opus: { type: 'audio/ogg', args: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'] },
  aac: { type: 'audio/aac', args: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'] },
  flac: { type: 'audio/flac', args: ['-c:a', 'flac', '-f', 'flac'] },
  wav: { type: 'audio/wav', args: [] },
  pcm: { type: 'audio/pcm', args: [] },
} as const;

export type SpeechFormat = keyof typeof SPEECH_FORMATS;

export async function encodeSpeech(
  samples: Int16Array,
  rate: number,
  format: SpeechFormat,
  signal?: AbortSignal,
): Promise<Buffer> {
  if (format === 'wav') return writeWav(samples, rate);
  if (format === 'pcm') {
    const s = resample(samples, rate, 24_000);
    return Buffer.from(s.buffer, s.byteOffset, s.byteLength);
  }
  const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  if (format === 'flac') {
    // FLAC keeps its length in the STREAMINFO header, which ffmpeg can only fill in on a
    // seekable output: encode to a temporary file.
    const dir = await mkdtemp(join(tmpdir(), 'avatar-tts-'));
    try {
      const file = join(dir, 'speech.flac');
      await runFfmpeg(
        [
          '-f',
          's16le',
          '-ar',
          String(rate),
          '-ac',
          '1',
          '-i',
          'pipe:0',
          ...SPEECH_FORMATS.flac.args,
          '-y',
          file,
        ],
        (stdin) => {
          stdin.write(pcm);
        },
        { signal },
      );
      return await readFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return runFfmpeg(
    [
      '-f',
      's16le',
      '-ar',
      String(rate),
      '-ac',
      '1',
      '-i',
      'pipe:0',
      ...SPEECH_FORMATS[format].args,
      'pipe:1',
    ],
    (stdin) => {
      stdin.write(pcm);
    },
    { signal },
  );
}

/**
 * Any audio file ffmpeg reads, as 16 kHz mono PCM16 (what the Recognizer and VAD take). The
 * upload goes to a temporary file, not ffmpeg's stdin: an ordinary .m4a keeps its index
 * (moov) after the media, and through a pipe ffmpeg cannot seek back to the audio, so a
 * longer recording decoded to almost nothing (issue 19).
 */
export async function decodeTo16k(bytes: Uint8Array, signal?: AbortSignal): Promise<Int16Array> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-upload-'));
  try {
    const file = join(dir, 'upload');
    await writeFile(file, bytes);
    const out = await runFfmpeg(
      ['-i', file, '-f', 's16le', '-ar', '16000', '-ac', '1', 'pipe:1'],
      undefined,
      { signal },
    );
    return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + (out.byteLength & ~1)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
