/**
 * Offline render for `speak` (spec 4.10): text already synthesized + a face -> a plain MP4
 * (H.264 + AAC, faststart, not fragmented) whose duration follows the speech, at any size and
 * frame rate, as fast as the machine allows. Shares the renderer and lip sync with the live
 * session stream (ARCHITECTURE media notes). The last 0.5 s cross-fade to `endFace` when
 * given (spec `end_frame`), with the mouth closed on the final frame.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Speech } from '../models/voice.js';
import { ffmpegDone, spawnFfmpeg, writeAsync } from './ffmpeg.js';
import type { FaceSource } from './face-source.js';
import { mouthTrack, talkEyes } from './lip-sync.js';
import { speechPcm } from './talk-clip.js';
// A speak clip is a whole file, never spliced: its AAC keeps the Voice's 16 kHz (the live
// stream's 32 kHz is only for clean joins, encoder.ts).
import { PCM_RATE as SPEAK_AUDIO_RATE } from './encoder.js';
import { durationsFromEditLists } from './mp4-durations.js';

/** The video codec of a one-shot speech clip (what `/speak` returns; the bench's reference encodes with it too). */
export const SPEECH_VIDEO_ARGS = [
  '-c:v',
  'libx264',
  '-profile:v',
  'baseline',
  '-level',
  '3.1',
  '-preset',
  'veryfast',
  '-crf',
  '23',
  '-bf',
  '0',
  '-pix_fmt',
  'yuv420p',
  '-threads',
  '1',
];

export interface SpeechClipOptions {
  face: FaceSource;
  /** The face the clip ends on (spec `end_frame`); defaults to `face`. */
  endFace?: FaceSource;
  speech: Speech;
  /** Output size (spec defaults 352x480; odd values round down to even); faces of another size are scaled by ffmpeg. */
  width?: number;
  height?: number;
  /** Frames per second (spec default 24). */
  fps?: number;
  signal?: AbortSignal;
}

const FADE_S = 0.5;

export async function renderSpeechClip(opts: SpeechClipOptions): Promise<Buffer> {
  const { face, speech } = opts;
  // H.264 with 4:2:0 chroma needs even sizes: an odd width or height is rounded down.
  const width = Math.max(2, (opts.width ?? 352) & ~1);
  const height = Math.max(2, (opts.height ?? 480) & ~1);
  const fps = opts.fps ?? 24;
  const src = face.frames;
  const end = opts.endFace && opts.endFace !== face ? opts.endFace.frames : null;
  if (end && (end.width !== src.width || end.height !== src.height))
    throw new Error('face and end face differ in size');
  const pcm = speechPcm(speech);
  const durationS = pcm.length / SPEAK_AUDIO_RATE;
  const frames = Math.max(1, Math.ceil(durationS * fps));
  const mouth = mouthTrack(speech);
  const fadeFrames = end ? Math.min(frames, Math.round(FADE_S * fps)) : 0;
  const a = Buffer.alloc(src.width * src.height * 3);
  const b = Buffer.alloc(src.width * src.height * 3);
  const frame = (i: number): Buffer => {
    const ms = (i * 1000) / fps;
    const state = { mouth: i === frames - 1 ? 0 : mouth(ms), eyes: talkEyes(ms) };
    src.render(state, a);
    const into = i - (frames - fadeFrames);
    if (!end || into < 0) return a;
    end.render(state, b);
    const t = fadeFrames <= 1 ? 1 : into / (fadeFrames - 1);
    for (let k = 0; k < a.length; k++) a[k] = a[k]! + (b[k]! - a[k]!) * t;
    return a;
  };
  const dir = await mkdtemp(join(tmpdir(), 'avatar-speech-'));
  const file = join(dir, 'speech.mp4');
  try {
    await new Promise<void>((resolve, reject) => {
      const scale =
        width !== src.width || height !== src.height
          ? [
              '-vf',
              `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height}`,
            ]
          : [];
      const p = spawnFfmpeg(
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-nostdin',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          '-s',
          `${src.width}x${src.height}`,
          '-r',
          String(fps),
          '-i',
          'pipe:0',
          '-f',
          's16le',
          '-ar',
          String(SPEAK_AUDIO_RATE),
          '-ac',
          '1',
          '-i',
          'pipe:3',
          '-map',
          '0:v',
          '-map',
          '1:a',
          ...scale,
          ...SPEECH_VIDEO_ARGS,
          '-c:a',
          'aac',
          '-b:a',
          '48k',
          '-ar',
          String(SPEAK_AUDIO_RATE),
          '-ac',
          '1',
          '-movflags',
          '+faststart',
          '-fflags',
          '+bitexact',
          '-f',
          'mp4',
          '-y',
          file,
        ],
        { fd3: true, stdout: 'ignore', ...(opts.signal ? { signal: opts.signal } : {}) },
      );
      ffmpegDone(p).then(resolve, reject);
      const video = p.stdin!;
      const audio = p.stdio[3] as NodeJS.WritableStream;
      (async () => {
        for (let i = 0; i < frames; i++) {
          if (opts.signal?.aborted) break;
          await writeAsync(video, Buffer.from(frame(i)));
        }
      })()
        .finally(() => video.end())
        .catch(reject);
      audio.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    });
    // The container's duration is the speech's, not the AAC track with its priming.
    return durationsFromEditLists(await readFile(file));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
