/**
 * Offline speech clips for speak (spec 4.10): frames from any FrameSource (a photo or the
 * procedural face) with a per-frame state (the lip-sync mouth), muxed with the synthesized
 * speech into one plain MP4 (H.264 baseline + AAC, `+faststart`, so players start before
 * the whole file arrives). The video lasts exactly as many frames as cover the speech, so
 * the duration follows the speech (spec: "frame count is not settable").
 *
 * Same encoder family as the idle loops (clips.ts): baseline, no B-frames, yuv420p. Speak
 * renders as fast as it can on one core: `ultrafast`, one x264 thread.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FrameSource } from './clips.js';
import type { FrameState } from './face.js';
import { runFfmpeg, writeAsync } from './ffmpeg.js';

export interface SpeechClipInput {
  source: FrameSource;
  /** Last-frame face (spec `end_frame`): the clip cross-fades into it over its last `endFadeS`. */
  endSource?: FrameSource | null;
  endFadeS?: number;
  fps: number;
  /** Mono PCM16 speech and its rate. */
  samples: Int16Array;
  sampleRate: number;
  /** Face state of each frame (mouth from the speech). */
  state: (frame: number, fps: number, total: number) => FrameState;
  signal?: AbortSignal;
}

export interface SpeechClip {
  mp4: Buffer;
  frames: number;
  /** Seconds of video (frames / fps). */
  videoSeconds: number;
  /** Seconds of speech. */
  audioSeconds: number;
}

/** Mono PCM16 as a WAVE file. */
export function pcm16Wav(samples: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

function blend(a: Buffer, b: Buffer, t: number, out: Buffer): void {
  const k = Math.round(t * 256);
  for (let i = 0; i < out.length; i++) out[i] = (a[i]! * (256 - k) + b[i]! * k) >> 8;
}

/**
 * Frames by face state: speech holds the mouth on a phone for several frames and a photo
 * warp is costly, so each distinct state (mouth and eyes quantized to 1/64: under a pixel
 * of jaw) is drawn once and its buffer reused. Cached buffers are never written again, so
 * they go to the encoder without a copy.
 */
class FrameMemo {
  private readonly frames = new Map<string, Buffer>();
  constructor(
    private readonly source: FrameSource,
    private readonly max = 96,
  ) {}
  get(state: FrameState): Buffer {
    const q = (v: number | undefined) => Math.round((v ?? 0) * 64);
    const key = `${q(state.mouth)}:${q(state.eyes)}:${q(state.sway)}`;
    const hit = this.frames.get(key);
    if (hit) return hit;
    const quantized = { mouth: q(state.mouth) / 64, eyes: q(state.eyes) / 64, sway: state.sway === undefined ? undefined : q(state.sway) / 64 };
    const frame = this.source.render(quantized, Buffer.alloc(this.source.width * this.source.height * 3));
    if (this.frames.size < this.max) this.frames.set(key, frame);
    return frame;
  }
}

export async function renderSpeechClip(input: SpeechClipInput): Promise<SpeechClip> {
  const { source, fps } = input;
  const audioSeconds = input.samples.length / input.sampleRate;
  const frames = Math.max(1, Math.ceil(audioSeconds * fps));
  const memo = new FrameMemo(source);
  const endMemo = input.endSource ? new FrameMemo(input.endSource) : null;
  const fadeFrames = endMemo ? Math.min(frames, Math.max(1, Math.round((input.endFadeS ?? 0.5) * fps))) : 0;
  const dir = await mkdtemp(join(tmpdir(), 'avatar-speak-'));
  const wav = join(dir, 'speech.wav');
  const out = join(dir, 'speak.mp4');
  try {
    await writeFile(wav, pcm16Wav(input.samples, input.sampleRate));
    await runFfmpeg(
      [
        '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${source.width}x${source.height}`, '-r', String(fps), '-i', '-',
        '-i', wav, '-map', '0:v', '-map', '1:a',
        '-c:v', 'libx264', '-profile:v', 'baseline', '-preset', 'ultrafast', '-crf', '28', '-threads', '1',
        '-pix_fmt', 'yuv420p', '-g', String(fps * 2), '-bf', '0',
        '-c:a', 'aac', '-b:a', '64k', '-ac', '1',
        '-movflags', '+faststart', '-f', 'mp4', '-y', out,
      ],
      async (stdin) => {
        for (let i = 0; i < frames; i++) {
          if (input.signal?.aborted) return;
          const state = input.state(i, fps, frames);
          const frame = memo.get(state);
          const fadeAt = i - (frames - fadeFrames);
          if (endMemo && fadeAt >= 0) {
            const mixed = Buffer.alloc(frame.length);
            // The last frame is the end face itself (spec `end_frame`).
            blend(frame, endMemo.get(state), fadeFrames <= 1 ? 1 : fadeAt / (fadeFrames - 1), mixed);
            await writeAsync(stdin, mixed);
          } else {
            await writeAsync(stdin, frame);
          }
        }
      },
      { signal: input.signal },
    );
    return { mp4: await readFile(out), frames, videoSeconds: frames / fps, audioSeconds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
