import { runFfmpeg } from '../../src/media/ffmpeg.js';

/** Decode the audio of an fMP4 byte stream to 16 kHz mono PCM16. */
export async function decodeAudio(mp4: Buffer): Promise<Int16Array> {
  const pcm = await runFfmpeg(
    ['-i', 'pipe:0', '-vn', '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1'],
    (stdin) => {
      stdin.write(mp4);
    },
  );
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
}

/** Milliseconds from the first to the last 20 ms window with sound (the idle loop's audio is silent). */
export function voicedSpanMs(pcm: Int16Array): number {
  const win = 320;
  let first = -1;
  let last = -1;
  for (let w = 0; w * win < pcm.length; w++) {
    let peak = 0;
    for (let i = w * win; i < Math.min(pcm.length, (w + 1) * win); i++)
      peak = Math.max(peak, Math.abs(pcm[i]!));
    if (peak > 500) {
      if (first < 0) first = w;
      last = w;
    }
  }
  return first < 0 ? 0 : (last - first + 1) * 20;
}

/** Total milliseconds of 20 ms windows with sound (gaps between sentences do not count). */
export function voicedMs(pcm: Int16Array): number {
  const win = 320;
  let n = 0;
  for (let w = 0; w * win < pcm.length; w++) {
    let peak = 0;
    for (let i = w * win; i < Math.min(pcm.length, (w + 1) * win); i++)
      peak = Math.max(peak, Math.abs(pcm[i]!));
    if (peak > 500) n++;
  }
  return n * 20;
}
