import { describe, expect, it } from 'vitest';
import {
  encodeClip,
  framesFor,
  MEDIA_FPS,
  PCM_RATE,
  SAMPLES_PER_FRAME,
  UNIT_MS,
  warmEncoder,
} from '../src/media/encoder.js';
import { splitFmp4 } from '../src/media/fmp4.js';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { faceFromStyle } from '../src/media/face-source.js';
import { encodeTalk, LEAD_IN_MS } from '../src/media/talk-clip.js';
import { burstsMs, timings } from './helpers/fmp4-timing.js';

/**
 * What makes clean clip joins (docs/media.md "Clip joins"): a clip from the live encoder,
 * cold or from a primed spare, has every fragment start and end its audio and video
 * together on the 160 ms grid, both tracks as long as the clip, and its sound where it was
 * fed (speech time t plays at clip time t: lip sync), with the AAC priming laid over the
 * clip's first 32 ms instead of a first frame held over it.
 */
const W = 64;
const H = 48;
const BURST_MS = [400, 700];

async function encode(warm: boolean) {
  const frames = framesFor(960);
  const audio = new Int16Array(frames * SAMPLES_PER_FRAME);
  for (const at of BURST_MS) {
    for (let i = 0; i < PCM_RATE / 50; i++)
      audio[(at * PCM_RATE) / 1000 + i] = Math.round(
        12000 * Math.sin((2 * Math.PI * 1000 * i) / PCM_RATE),
      );
  }
  const out: Buffer[] = [];
  const rgb = Buffer.alloc(W * H * 3);
  let skipMs = -1;
  await encodeClip({
    width: W,
    height: H,
    frames,
    frame: (i) => rgb.fill(i * 7),
    audio,
    onData: (d) => out.push(d),
    warm,
    onStart: (s) => (skipMs = s.skipMs),
  });
  return { mp4: Buffer.concat(out), frames, skipMs };
}

describe('live encoder clips join cleanly', () => {
  it.each([
    ['cold', false],
    ['from a primed spare', true],
  ] as const)(
    '%s: fragments end both tracks together, every frame 40 ms, the sound where it was fed',
    async (_name, warm) => {
      if (warm) warmEncoder(W, H);
      const { mp4, frames, skipMs } = await encode(warm);
      expect(skipMs).toBe(warm ? UNIT_MS : 0);
      const { tracks, fragments } = splitFmp4(mp4);
      const ms = (id: number, ticks: number) =>
        (ticks * 1000) / tracks.find((t) => t.id === id)!.timescale;
      for (const f of fragments) {
        const starts = f.tracks.map((t) => ms(t.id, t.start));
        const ends = f.tracks.map((t) => ms(t.id, t.start + t.duration));
        expect(starts[1]).toBeCloseTo(starts[0]!, 6);
        expect(ends[1]).toBeCloseTo(ends[0]!, 6);
        expect(ends[0]! - starts[0]!).toBeCloseTo(UNIT_MS, 6);
      }
      // Both tracks run from 0 to the clip's end (a spare's primer unit first)...
      const length = skipMs + (frames * 1000) / MEDIA_FPS;
      const last = fragments.at(-1)!;
      for (const t of last.tracks) expect(ms(t.id, t.start + t.duration)).toBeCloseTo(length, 6);
      expect(fragments.length).toBe(length / UNIT_MS);
      // ...and no frame is held over the AAC priming: every video sample is 40 ms.
      const { video } = timings(mp4);
      expect(video.frames).toBe(length / (1000 / MEDIA_FPS));
      expect(video.odd).toEqual([]);
      // Lip sync: each burst decodes where it was fed, within a sample or two of resampling.
      const at = burstsMs(mp4);
      expect(at).toHaveLength(BURST_MS.length);
      at.forEach((t, i) => expect(Math.abs(t - (skipMs + BURST_MS[i]!))).toBeLessThan(1));
    },
  );
});

describe('speech that starts at its first sample', () => {
  it('is played whole on a cold encoder: silence is added before it, not its first 32 ms dropped', async () => {
    // A Voice with no leading pause (flite always has one; another may not): a 20 ms burst at 0.
    const samples = new Int16Array(PCM_RATE / 2);
    for (const at of [0, 300]) {
      for (let i = 0; i < PCM_RATE / 50; i++)
        samples[(at * PCM_RATE) / 1000 + i] = Math.round(
          12000 * Math.sin((2 * Math.PI * 1000 * i) / PCM_RATE),
        );
    }
    const speech = { sampleRate: PCM_RATE, samples, durationMs: 500 };
    // A frame size no spare was primed for: encodeTalk falls back to a cold encoder.
    const face = faceFromStyle(
      personaStyle({ fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0], 'ava')!,
      96,
      128,
    );
    const out: Buffer[] = [];
    const talk = encodeTalk(
      face,
      speech,
      (init) => out.push(init),
      (f) => out.push(f.data),
    );
    await talk.done;
    expect(talk.speechStartMs).toBe(0);
    const at = burstsMs(Buffer.concat(out));
    expect(at).toHaveLength(2);
    // Both bursts, the first after the lead-in, 300 ms apart: nothing cut, lips in step.
    expect(Math.abs(at[0]! - LEAD_IN_MS)).toBeLessThan(1);
    expect(Math.abs(at[1]! - at[0]! - 300)).toBeLessThan(1);
  });
});
