/**
 * Talking segments: one live encode per reply (issue 8 item 5). The speech is padded with
 * silence to whole 160 ms units (encoder.ts) and the frames follow the mouth track of
 * lip-sync.ts. Frame i shows speech time i * 40 ms, and speech time t plays at clip time t
 * (past a primed encoder's unit): the encoder lays the AAC priming over the clip's first
 * 32 ms, which the lead-in silence covers. The Voice's leading pause (flite starts every
 * utterance with ~160 ms of silence) is trimmed to LEAD_IN_MS so the reply is heard sooner.
 */
import type { Speech } from '../models/voice.js';
import { encodeClip, framesFor, MEDIA_FPS, PCM_RATE, SAMPLES_PER_FRAME } from './encoder.js';
import type { FaceSource } from './face-source.js';
import { FragmentSplitter, type Fragment, type TrackInfo } from './fmp4.js';
import { mouthTrack, talkEyes } from './lip-sync.js';

/** Mono PCM16 at PCM_RATE (linear interpolation when the Voice used another rate). */
export function speechPcm(speech: Speech): Int16Array {
  if (speech.sampleRate === PCM_RATE) return speech.samples;
  const n = Math.round((speech.samples.length * PCM_RATE) / speech.sampleRate);
  const out = new Int16Array(n);
  const step = speech.sampleRate / PCM_RATE;
  for (let i = 0; i < n; i++) {
    const x = i * step;
    const i0 = Math.floor(x);
    const a = speech.samples[i0] ?? 0;
    out[i] = Math.round(a + ((speech.samples[i0 + 1] ?? a) - a) * (x - i0));
  }
  return out;
}

export interface TalkEncode {
  /** Resolves when the encoder exits (rejects on failure; an abort rejects too). */
  done: Promise<void>;
  abort(): void;
  /** Milliseconds of leading silence cut from the speech, negative when silence was added (add to clip time for speech time). */
  trimMs: number;
  /** Clip time (ms) where the (trimmed) speech starts: a primed encoder's unit, else 0. */
  readonly speechStartMs: number;
}

/** Media of a reply a listener is waiting for: its first two fragments and a frame more (EncodeJob.urgentMs). */
export const URGENT_MS = 360;

/** Silence kept before the first sound of a reply (at least PRIMING_MS: a cold encoder's priming plays there). */
export const LEAD_IN_MS = 40;

/**
 * Leading silence of the speech worth cutting, ms, from the phones, else from the samples;
 * negative when the speech starts sooner than LEAD_IN_MS: that much silence is put before it
 * (a cold encoder lays its priming over the first PRIMING_MS, which must be silence).
 */
export function leadingSilenceMs(speech: Speech): number {
  const first = speech.phones?.find((p) => p.text !== 'pau');
  let ms = first ? first.startMs : 0;
  if (!speech.phones?.length) {
    const i = speech.samples.findIndex((v) => Math.abs(v) > 500);
    ms = i < 0 ? 0 : (i * 1000) / speech.sampleRate;
  }
  return Math.floor(ms - LEAD_IN_MS);
}

/** What a talking clip of `speech` holds: its trimmed, padded audio and the mouth over clip time. */
export interface TalkPlan {
  trimMs: number;
  /** Length of the trimmed speech, ms. */
  speechMs: number;
  /** Video frames (whole units). */
  frames: number;
  /** PCM at PCM_RATE, frames * SAMPLES_PER_FRAME long; sample time t plays at clip time t. */
  audio: Int16Array;
  /** Mouth openness at speech time (add trimMs to clip time). */
  mouth: (ms: number) => number;
}

export function talkPlan(speech: Speech, minMs = 0): TalkPlan {
  const trimMs = leadingSilenceMs(speech);
  const whole = speechPcm(speech);
  const cut = Math.round((trimMs * PCM_RATE) / 1000);
  let pcm = whole.subarray(Math.max(0, cut));
  if (cut < 0) {
    pcm = new Int16Array(whole.length - cut);
    pcm.set(whole, -cut);
  }
  const speechMs = (pcm.length * 1000) / PCM_RATE;
  const frames = framesFor(Math.max(speechMs, minMs));
  const audio = new Int16Array(frames * SAMPLES_PER_FRAME);
  audio.set(pcm.subarray(0, audio.length));
  return { trimMs, speechMs, frames, audio, mouth: mouthTrack(speech) };
}

/** Encode `speech` on `face`, calling `onInit` once and `onFragment` per fragment as they come out. */
export function encodeTalk(
  face: FaceSource,
  speech: Speech,
  onInit: (init: Buffer, tracks: TrackInfo[]) => void,
  onFragment: (f: Fragment) => void,
  opts: {
    /** Extra silence after the speech (ms), e.g. to end a clip at a fixed length. */
    minMs?: number;
    /** Holds the feed to real time (EncodeJob.pace; clip time 0 is the first frame after the trim). */
    pace?: (ms: number) => Promise<void> | void;
  } = {},
): TalkEncode {
  const { trimMs, speechMs, frames, audio, mouth } = talkPlan(speech, opts.minMs);
  const buf = Buffer.alloc(face.frames.width * face.frames.height * 3);
  const ac = new AbortController();
  let skipMs = 0;
  let tracks: TrackInfo[] = [];
  const splitter = new FragmentSplitter(
    (init, t) => {
      tracks = t;
      onInit(init, t);
    },
    (f) => {
      // A primed encoder's first unit (grey frames) is dropped: keep from its forced IDR on.
      const v = tracks.find((t) => t.kind === 'video');
      const start = v && f.tracks.find((t) => t.id === v.id);
      if (skipMs > 0 && start && (start.start * 1000) / v.timescale < skipMs - 1) return;
      onFragment(f);
    },
  );
  const done = encodeClip({
    width: face.frames.width,
    height: face.frames.height,
    frames,
    frame: (i) => {
      const ms = (i * 1000) / MEDIA_FPS;
      return face.frames.render(
        { mouth: ms < speechMs ? mouth(ms + trimMs) : 0, eyes: talkEyes(ms) },
        buf,
      );
    },
    audio,
    onData: (d) => splitter.push(d),
    onStart: (info) => (skipMs = info.skipMs),
    signal: ac.signal,
    warm: true,
    urgentMs: URGENT_MS,
    ...(opts.pace ? { pace: opts.pace } : {}),
  });
  return {
    done,
    abort: () => ac.abort(),
    trimMs,
    get speechStartMs() {
      return skipMs;
    },
  };
}
