/**
 * Decode any audio ffmpeg reads (wav, mp3, m4a, flac, ogg: the voice-sample and speak
 * formats of spec 4.7/4.10) to mono PCM16 at `rate` (16 kHz: the Voice's rate and what
 * voice shaping measures). Read from a temp file, not a pipe: an m4a keeps its index at the
 * end, which a pipe cannot seek to.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.js';

export async function decodeAudio(
  bytes: Uint8Array,
  rate = 16000,
  opts: { signal?: AbortSignal; maxSeconds?: number } = {},
): Promise<Int16Array> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-audio-'));
  try {
    const file = join(dir, 'audio');
    await writeFile(file, bytes);
    const limit = opts.maxSeconds ? ['-t', String(opts.maxSeconds)] : [];
    const pcm = await runFfmpeg(
      [
        '-i',
        file,
        ...limit,
        '-map',
        '0:a:0',
        '-ac',
        '1',
        '-ar',
        String(rate),
        '-f',
        's16le',
        'pipe:1',
      ],
      undefined,
      opts,
    );
    return new Int16Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 2)).slice();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
