/**
 * Any audio ffmpeg reads (wav, mp3, m4a, flac, ogg) to mono PCM16 at a given rate. Read
 * from a temp file, not a pipe: an m4a whose index (`moov`) sits at the end cannot be
 * demuxed from a pipe. `maxSeconds` bounds the decode (a voice reference needs seconds,
 * not an hour).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from './ffmpeg.js';

export async function decodeAudio(
  bytes: Uint8Array,
  opts: { sampleRate?: number; maxSeconds?: number; signal?: AbortSignal } = {},
): Promise<{ samples: Int16Array; sampleRate: number }> {
  const sampleRate = opts.sampleRate ?? 16_000;
  const dir = await mkdtemp(join(tmpdir(), 'avatar-audio-'));
  try {
    const file = join(dir, 'input');
    await writeFile(file, bytes);
    const limit = opts.maxSeconds ? ['-t', String(opts.maxSeconds)] : [];
    const pcm = await runFfmpeg(
      ['-i', file, ...limit, '-vn', '-ac', '1', '-ar', String(sampleRate), '-f', 's16le', '-acodec', 'pcm_s16le', 'pipe:1'],
      undefined,
      { signal: opts.signal },
    );
    if (pcm.length < 2) throw new Error('no audio decoded');
    const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + (pcm.length & ~1)));
    return { samples, sampleRate };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
