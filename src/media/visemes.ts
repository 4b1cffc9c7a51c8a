/**
 * Talking without a video encoder (issue 15 item 3): each face's mouth shapes are encoded
 * once per process (a "bank"), and a reply's picture is spliced from them frame by frame.
 *
 * The bank is one encode at the live settings (encoder.ts) of the closed-mouth face as a
 * keyframe, then each shape as a P frame right after that same keyframe: 9 mouth openings
 * (0, 1/8 ... 1) x 3 eye states (open, half, shut for blinks). Every P frame is rewritten as
 * a non-reference picture (h264.ts): a decoder keeps the keyframe as its only reference, so
 * after one closed-mouth keyframe any sequence of shape frames decodes exactly as encoded,
 * with no drift. A talking clip is then: the keyframe, then per 40 ms frame the shape
 * nearest the lip-sync track's openness (lip-sync.ts; a quarter of an opening step at most
 * off), a new keyframe at a closed-mouth fragment start at least every KEYFRAME_FRAMES (so a
 * player joining mid-reply can start). The sound is the clip's PCM through one audio-only
 * AAC encode (aac.ts), cached per Speech (the speech cache hands out the same object for a
 * repeated line). Fragments are written here: 160 ms, 4 video + 5 AAC frames ending
 * together, the same layout ffmpeg writes, so joins, re-timing and recording are unchanged.
 *
 * Cost: one bank encode per face (~60 frames, once), then per reply an audio encode and
 * byte copies: no per-frame rendering or H.264 encoding.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import findBox from 'mux.js/lib/mp4/find-box.js';
import parseTfhd from 'mux.js/lib/tools/parse-tfhd.js';
import parseTrun from 'mux.js/lib/tools/parse-trun.js';
import type { Speech } from '../models/voice.js';
import { encodeAac } from './aac.js';
import {
  encodeClip,
  FRAMES_PER_UNIT,
  KEYFRAME_FRAMES,
  MEDIA_FPS,
  SAMPLES_PER_FRAME,
} from './encoder.js';
import type { FaceSource } from './face-source.js';
import { splitFmp4, type Fragment, type TrackInfo } from './fmp4.js';
import {
  avccSample,
  idrPicIdZero,
  nalType,
  nalUnits,
  nonReferenceSlice,
  parameterSets,
} from './h264.js';
import { talkEyes } from './lip-sync.js';
import { talkPlan, type TalkEncode } from './talk-clip.js';

/** Mouth openings in the bank: 0, 1/8 ... 1. */
export const MOUTH_STEPS = 8;
/** Eye openings in the bank (talking frames blink, lip-sync.ts talkEyes). */
export const EYE_LEVELS = [1, 0.5, 0] as const;
const WARM_UP = 8;
/** AAC frames per 160 ms unit. */
const AAC_PER_UNIT = 5;

export interface VisemeBank {
  init: Buffer;
  tracks: TrackInfo[];
  /** The closed-mouth, open-eyed keyframe (AVCC sample). */
  key: Buffer;
  /** Non-reference P frames after `key`: shapes[eye level][mouth step]. */
  shapes: Buffer[][];
  /** One AAC frame of silence (pads a clip whose audio encode came out short). */
  silence: Buffer;
}

const MAX_BANKS = 32;
const banks = new LRUCache<string, Promise<VisemeBank>>({ max: MAX_BANKS });

/** The bank for `face`, built once per look and size per process (faces of the same look share it). */
export function visemeBank(face: FaceSource): Promise<VisemeBank> {
  const { width, height } = face.frames;
  const look = createHash('sha1')
    .update(face.frames.render({ mouth: 0, eyes: 1 }))
    .update(shapeProbe(face))
    .digest('hex');
  const key = `${width}x${height}:${look}`;
  let bank = banks.get(key);
  if (!bank) {
    bank = buildBank(face);
    const made = bank;
    made.catch(() => banks.peek(key) === made && banks.delete(key));
    banks.set(key, made);
  }
  return bank;
}

/** Two faces whose closed mouths match may still open differently: the open mouth joins the key. */
function shapeProbe(face: FaceSource): Buffer {
  return face.frames.render({ mouth: 1, eyes: 0 });
}

const stateOf = (s: number) => ({
  mouth: (s % (MOUTH_STEPS + 1)) / MOUTH_STEPS,
  eyes: EYE_LEVELS[Math.floor(s / (MOUTH_STEPS + 1))]!,
});

async function buildBank(face: FaceSource): Promise<VisemeBank> {
  const { width, height } = face.frames;
  const nShapes = (MOUTH_STEPS + 1) * EYE_LEVELS.length;
  // Frames: WARM_UP closed mouths (x264's rate control settles, so the keyframes after are
  // identical), then (closed keyframe, shape) pairs, padded to whole units.
  const frames = Math.ceil((WARM_UP + 2 * nShapes) / FRAMES_PER_UNIT) * FRAMES_PER_UNIT;
  const buf = Buffer.alloc(width * height * 3);
  const out: Buffer[] = [];
  await encodeClip({
    width,
    height,
    frames,
    frame: (i) => {
      const pair = i - WARM_UP;
      const shape =
        pair >= 0 && pair % 2 === 1 && (pair - 1) / 2 < nShapes
          ? stateOf((pair - 1) / 2)
          : { mouth: 0, eyes: 1 };
      return face.frames.render(shape, buf);
    },
    audio: new Int16Array(frames * SAMPLES_PER_FRAME),
    onData: (d) => out.push(d),
    keyframes: 'eq(mod(n,2),0)',
  });
  const { init, tracks, fragments } = splitFmp4(Buffer.concat(out));
  const video = tracks.find((t) => t.kind === 'video')!;
  const audio = tracks.find((t) => t.kind === 'audio')!;
  const vs = fragments.flatMap((f) => samplesOf(f, video.id));
  const as = fragments.flatMap((f) => samplesOf(f, audio.id));
  const vtrak = findBox(init, ['moov', 'trak']).find(
    (t) =>
      Buffer.from(findBox(t, ['mdia', 'hdlr'])[0]!.subarray(8, 12)).toString('latin1') === 'vide',
  );
  const stsd = vtrak && findBox(vtrak, ['mdia', 'minf', 'stbl', 'stsd'])[0];
  const avcC = stsd && findBox(stsd.subarray(8 + 8 + 78), ['avcC'])[0];
  if (!avcC || vs.length !== frames || as.length === 0)
    throw new Error('mouth-shape bank: unexpected encode');
  const { sps, pps } = parameterSets(avcC);
  const slices = (s: Uint8Array) =>
    nalUnits(s)
      .filter((u) => nalType(u) === 1 || nalType(u) === 5)
      .map((u) => (nalType(u) === 5 ? idrPicIdZero(u, sps) : u));
  const key = avccSample(slices(vs[WARM_UP]!));
  const shapes: Buffer[][] = EYE_LEVELS.map(() => []);
  for (let s = 0; s < nShapes; s++) {
    const before = avccSample(slices(vs[WARM_UP + 2 * s]!));
    // Each shape is coded against the keyframe just before it: all must be the same bytes.
    if (!before.equals(key)) throw new Error('mouth-shape bank: keyframes differ');
    const p = slices(vs[WARM_UP + 2 * s + 1]!).map((u) => nonReferenceSlice(u, sps, pps));
    shapes[Math.floor(s / (MOUTH_STEPS + 1))]!.push(avccSample(p));
  }
  return { init, tracks, key, shapes, silence: as[as.length - 2] ?? as[0]! };
}

/** The samples of track `id` in a fragment (data offsets from the moof: default-base-is-moof). */
function samplesOf(f: Fragment, id: number): Buffer[] {
  const moof = findBox(f.data, ['moof'])[0]!;
  const out: Buffer[] = [];
  for (const traf of findBox(moof, ['traf'])) {
    if (parseTfhd(findBox(traf, ['tfhd'])[0]!).trackId !== id) continue;
    for (const box of findBox(traf, ['trun'])) {
      const trun = parseTrun(box);
      let o = trun.dataOffset ?? 0;
      for (const s of trun.samples) {
        out.push(Buffer.from(f.data.subarray(o, o + s.size!)));
        o += s.size!;
      }
    }
  }
  return out;
}

const KEY_FLAGS = 0x02000000;
const DELTA_FLAGS = 0x01010000;

interface TrackRun {
  id: number;
  start: number;
  duration: number;
  samples: { data: Buffer; flags: number }[];
}

/**
 * moof + mdat for one fragment (mfhd 0: the timeline patches it, with tfdt, when it is sent),
 * laid out once into one buffer, its timing taken from what was written: a fragment is made
 * for every 160 ms of every talking session, and building it box by box, then parsing it
 * back, was half of what the box allocated at 40 talking sessions (docs/media.md
 * "Steady state at 40 sessions"). A test reads every layout back with the parser
 * (readFragment) and gets the same.
 *
 * moof { mfhd, traf { tfhd (default-base-is-moof), tfdt (64-bit), trun (data offset; per
 * sample duration, size, flags) } per run }, then mdat with the runs' samples in order.
 */
export function writeFragment(runs: TrackRun[], tracks: TrackInfo[]): Fragment {
  const TRAF_FIXED = 8 + 16 + 20 + 20; // traf header, tfhd, tfdt, trun without samples
  const moofSize = 8 + 16 + runs.reduce((n, r) => n + TRAF_FIXED + 12 * r.samples.length, 0);
  const mdatSize =
    8 + runs.reduce((n, r) => n + r.samples.reduce((m, x) => m + x.data.length, 0), 0);
  const data = Buffer.allocUnsafe(moofSize + mdatSize);
  let at = 0;
  const head = (size: number, type: string) => {
    data.writeUInt32BE(size, at);
    data.write(type, at + 4, 'latin1');
    at += 8;
  };
  const u32 = (v: number) => {
    data.writeUInt32BE(v >>> 0, at);
    at += 4;
  };
  head(moofSize, 'moof');
  head(16, 'mfhd');
  u32(0);
  const mfhdAt = at;
  u32(0);
  const out: Fragment = { data, tracks: [], mfhdAt, key: false };
  let sampleAt = moofSize + 8;
  for (const r of runs) {
    head(TRAF_FIXED + 12 * r.samples.length, 'traf');
    head(16, 'tfhd');
    u32(0x00020000);
    u32(r.id);
    head(20, 'tfdt');
    u32(0x01000000);
    const tfdtAt = at;
    data.writeBigUInt64BE(BigInt(r.start), at);
    at += 8;
    head(20 + 12 * r.samples.length, 'trun');
    u32(0x00000701);
    u32(r.samples.length);
    u32(sampleAt);
    for (const x of r.samples) {
      u32(r.duration);
      u32(x.data.length);
      u32(x.flags);
      sampleAt += x.data.length;
    }
    if (tracks.find((t) => t.id === r.id)?.kind === 'video')
      // ISO 14496-12 8.8.3.1: sample_is_non_sync_sample clear on the first sample.
      out.key = r.samples.length > 0 && (r.samples[0]!.flags & 0x10000) === 0;
    out.tracks.push({ id: r.id, start: r.start, duration: r.duration * r.samples.length, tfdtAt });
  }
  head(mdatSize, 'mdat');
  for (const r of runs)
    for (const x of r.samples) {
      x.data.copy(data, at);
      at += x.data.length;
    }
  return out;
}

/** AAC frames of a Speech already encoded (a repeated line: the speech cache returns the same object). */
const aacCache = new WeakMap<Speech, { minMs: number; frames: Buffer[] }>();

const nearestEyes = (e: number) => {
  let best = 0;
  for (let k = 1; k < EYE_LEVELS.length; k++)
    if (Math.abs(EYE_LEVELS[k]! - e) < Math.abs(EYE_LEVELS[best]! - e)) best = k;
  return best;
};

/**
 * A talking clip of `speech` spliced from `bank`: `onFragment` gets each fragment (clip time
 * from 0) as soon as its sound is encoded. Same contract as encodeTalk (talk-clip.ts).
 */
export function spliceTalk(
  bank: VisemeBank,
  speech: Speech,
  onFragment: (f: Fragment) => void,
  opts: { minMs?: number } = {},
): TalkEncode {
  const plan = talkPlan(speech, opts.minMs);
  const video = bank.tracks.find((t) => t.kind === 'video')!;
  const audio = bank.tracks.find((t) => t.kind === 'audio')!;
  const frameDur = video.timescale / MEDIA_FPS;
  const units = plan.frames / FRAMES_PER_UNIT;
  // Pictures for every frame, decided now (cheap): the shape nearest the lip-sync track.
  const pictures: { data: Buffer; flags: number }[] = [];
  let lastKey = -Infinity;
  for (let i = 0; i < plan.frames; i++) {
    const ms = (i * 1000) / MEDIA_FPS;
    const m = Math.round((ms < plan.speechMs ? plan.mouth(ms + plan.trimMs) : 0) * MOUTH_STEPS);
    const e = nearestEyes(talkEyes(ms));
    const closed = m === 0 && e === 0;
    if (i === 0 || (closed && i % FRAMES_PER_UNIT === 0 && i - lastKey >= KEYFRAME_FRAMES)) {
      lastKey = i;
      pictures.push({ data: bank.key, flags: KEY_FLAGS });
    } else
      pictures.push({
        data: bank.shapes[e]![Math.min(MOUTH_STEPS, Math.max(0, m))]!,
        flags: DELTA_FLAGS,
      });
  }
  const ac = new AbortController();
  const cached = aacCache.get(speech);
  const sound: Buffer[] = cached && cached.minMs === (opts.minMs ?? 0) ? cached.frames : [];
  let sent = 0;
  let ended = false;
  const flush = () => {
    while (sent < units && !ac.signal.aborted) {
      const need = (sent + 1) * AAC_PER_UNIT;
      if (sound.length < need && !ended) return;
      const aac = [];
      for (let k = sent * AAC_PER_UNIT; k < need; k++)
        aac.push({ data: sound[k] ?? bank.silence, flags: KEY_FLAGS });
      onFragment(
        writeFragment(
          [
            {
              id: video.id,
              start: sent * FRAMES_PER_UNIT * frameDur,
              duration: frameDur,
              samples: pictures.slice(sent * FRAMES_PER_UNIT, (sent + 1) * FRAMES_PER_UNIT),
            },
            { id: audio.id, start: sent * AAC_PER_UNIT * 1024, duration: 1024, samples: aac },
          ],
          bank.tracks,
        ),
      );
      sent++;
    }
  };
  const done = (async () => {
    await Promise.resolve(); // fragments go out after the caller has the handle
    if (cached && sound === cached.frames) {
      ended = true;
      flush();
      return;
    }
    await encodeAac(
      plan.audio,
      (f) => {
        sound.push(f);
        flush();
      },
      ac.signal,
    );
    ended = true;
    aacCache.set(speech, { minMs: opts.minMs ?? 0, frames: sound });
    flush();
    if (ac.signal.aborted) throw new Error('encode aborted');
  })();
  return { done, abort: () => ac.abort(), trimMs: plan.trimMs, speechStartMs: 0 };
}
