import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaceRenderer, idleState, type FaceStyle, type FrameState } from './face.js';
import { H264_BASELINE, runFfmpeg, writeAsync } from './ffmpeg.js';

export interface ClipOptions {
  width?: number;
  height?: number;
  fps?: number;
  seconds: number;
  /** Frame state per index; defaults to the idle loop. */
  state?: (frame: number, fps: number, total: number) => FrameState;
  /** Abort the encode (kills ffmpeg). */
  signal?: AbortSignal;
}

/**
 * Encode a muted H.264 MP4 of the face (baseline profile, no B-frames, yuv420p, faststart)
 * so every browser plays it. Used for persona intros and idle loops.
 */
export async function renderSilentClip(style: FaceStyle, opts: ClipOptions): Promise<Buffer> {
  return renderFramesClip(new FaceRenderer(style, opts.width ?? 352, opts.height ?? 480), opts);
}

/** Anything that draws RGB24 frames from a FrameState: the procedural face, a photo still. */
export interface FrameSource {
  readonly width: number;
  readonly height: number;
  render(state: FrameState, out?: Buffer): Buffer;
}

/** The same encoder as renderSilentClip, over any frame source (idle loops of uploaded photos). */
export async function renderFramesClip(renderer: FrameSource, opts: ClipOptions): Promise<Buffer> {
  const fps = opts.fps ?? 24;
  const total = Math.round(opts.seconds * fps);
  const state = opts.state ?? ((f, r, n) => idleState(f, r, n));
  const frame = Buffer.alloc(renderer.width * renderer.height * 3);
  // +faststart rewrites the file, so the MP4 goes to a temp file rather than a pipe.
  const dir = await mkdtemp(join(tmpdir(), 'avatar-clip-'));
  const file = join(dir, 'clip.mp4');
  try {
    await runFfmpeg(
      [
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${renderer.width}x${renderer.height}`,
        '-r',
        String(fps),
        '-i',
        '-',
        ...H264_BASELINE,
        '-preset',
        'veryfast',
        '-crf',
        '30',
        '-pix_fmt',
        'yuv420p',
        '-g',
        String(fps * 2),
        '-bf',
        '0',
        '-an',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        '-y',
        file,
      ],
      async (stdin) => {
        for (let i = 0; i < total; i++) {
          if (opts.signal?.aborted) return;
          await writeAsync(stdin, Buffer.from(renderer.render(state(i, fps, total), frame)));
        }
      },
      { signal: opts.signal },
    );
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A single still frame as PNG (gallery poster, held frame between replies). */
export async function renderStillPng(style: FaceStyle, width = 352, height = 480): Promise<Buffer> {
  const renderer = new FaceRenderer(style, width, height);
  const frame = renderer.render({ eyes: 1, mouth: 0.02 });
  return runFfmpeg(
    [
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${width}x${height}`,
      '-i',
      '-',
      '-frames:v',
      '1',
      '-f',
      'image2',
      '-c:v',
      'png',
      'pipe:1',
    ],
    (stdin) => writeAsync(stdin, frame),
  );
}
