/**
 * The idle loop (spec 3 `assets_status`, issue 8 item 5): pre-encoded once per avatar
 * version by the emulator's idle-media builder, then replayed by every listening session
 * with no encoder running (fragments are only re-timed).
 *
 * Format: a fragmented MP4 exactly as the live encoder writes it (src/media/encoder.ts):
 * init segment (ftyp+moov, byte-identical to every talking segment's), then moof+mdat
 * fragments of 160 ms carrying H.264 video and silent AAC audio, each ending both tracks
 * together. Its length is whole 160 ms units, so it repeats without drift or gap.
 * The same file is what `GET .../versions/{id}/idle` serves (browsers play fMP4 directly).
 */
import type { FrameSource } from './clips.js';
import { AUDIO_RATE, encodeClip, framesFor, SAMPLES_PER_FRAME, MEDIA_FPS } from './encoder.js';
import type { FrameState } from './face.js';
import type { FaceSource } from './face-source.js';
import { splitFmp4, type Fragment, type TrackInfo } from './fmp4.js';

export interface IdleLoop {
  init: Buffer;
  tracks: TrackInfo[];
  fragments: Fragment[];
  /** Loop length on the timeline (both tracks end here). */
  durationMs: number;
  width: number;
  height: number;
}

export interface LoopClipOptions {
  /** Requested length; rounded up to whole 160 ms units. */
  seconds: number;
  /** Frame state per frame index; defaults to the face's idle motion. */
  state?: (frame: number, fps: number, total: number) => FrameState;
  signal?: AbortSignal;
}

/** Encode a looping silent clip of a face (the idle loop, or the still loop when `state` holds still). */
export async function renderLoopClip(
  face: FaceSource | FrameSource,
  opts: LoopClipOptions,
): Promise<Buffer> {
  const frames = 'frames' in face ? face.frames : face;
  const stateOf = opts.state ?? ('idle' in face ? face.idle : () => ({ mouth: 0, eyes: 1 }));
  const total = framesFor(opts.seconds * 1000);
  const buf = Buffer.alloc(frames.width * frames.height * 3);
  const out: Buffer[] = [];
  await encodeClip({
    width: frames.width,
    height: frames.height,
    frames: total,
    frame: (i) => frames.render(stateOf(i, MEDIA_FPS, total), buf),
    audio: new Int16Array(total * SAMPLES_PER_FRAME),
    onData: (d) => out.push(d),
    signal: opts.signal,
  });
  return Buffer.concat(out);
}

/**
 * Parse idle-media bytes (the builder's output) into a loop the session stream replays.
 * Throws on anything else, including a loop an older build encoded with 16 kHz audio: its
 * init segment differs from the live encoder's, so no reply could be spliced after it.
 */
export function loadIdleLoop(bytes: Buffer): IdleLoop {
  const { init, tracks, fragments } = splitFmp4(bytes);
  const video = tracks.find((t) => t.kind === 'video');
  const audio = tracks.find((t) => t.kind === 'audio');
  if (!video || !audio || fragments.length === 0)
    throw new Error('idle media is not a fragmented MP4 with video and audio (rebuild it)');
  // ffmpeg's audio track timescale is its sample rate.
  if (audio.timescale !== AUDIO_RATE)
    throw new Error(
      `idle media has ${audio.timescale / 1000} kHz audio, not the stream's ${AUDIO_RATE / 1000} kHz (rebuild it)`,
    );
  let endMs = 0;
  for (const f of fragments) {
    for (const t of f.tracks) {
      const ts = tracks.find((x) => x.id === t.id)!.timescale;
      endMs = Math.max(endMs, ((t.start + t.duration) * 1000) / ts);
    }
  }
  return { init, tracks, fragments, durationMs: endMs, width: video.width, height: video.height };
}

/** A short loop of the face holding still (eyes open, mouth closed): what a session shows while the idle loop is missing. */
export async function renderStillLoop(face: FaceSource, signal?: AbortSignal): Promise<IdleLoop> {
  return loadIdleLoop(
    await renderLoopClip(face.frames, {
      seconds: 0.32,
      state: () => ({ mouth: 0, eyes: 1 }),
      signal,
    }),
  );
}
