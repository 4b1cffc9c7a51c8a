import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { liveInit, MEDIA_FPS, PCM_RATE, UNIT_MS } from '../src/media/encoder.js';
import { ffmpegPath } from '../src/media/ffmpeg.js';
import { faceFromStyle } from '../src/media/face-source.js';
import { LEAD_IN_MS } from '../src/media/talk-clip.js';
import findBox from 'mux.js/lib/mp4/find-box.js';
import parseTfhd from 'mux.js/lib/tools/parse-tfhd.js';
import parseTrun from 'mux.js/lib/tools/parse-trun.js';
import { readFragment, type TrackInfo } from '../src/media/fmp4.js';
import { spliceTalk, visemeBank, writeFragment } from '../src/media/visemes.js';
import type { Speech } from '../src/models/voice.js';
import { burstsMs, timings } from './helpers/fmp4-timing.js';

/**
 * Talking frames spliced from pre-encoded mouth shapes (docs/media.md "Talking without an
 * encoder"): the clip must decode cleanly (every shape frame is coded against the one
 * closed-mouth keyframe, so any order decodes as encoded), show the mouth the lip-sync track
 * asks for, keep the live stream's timing (160 ms fragments ending both tracks together,
 * every frame 40 ms) and play the sound where it was fed.
 */
const face = faceFromStyle(
  personaStyle({ fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0], 'ava')!,
);
const { width: W, height: H } = face.frames;

/** 1.2 s: closed, wide open (aa), closed (m), wide open, closed; a 1 kHz burst at each opening. */
function speech(): Speech {
  const samples = new Int16Array((PCM_RATE * 1200) / 1000);
  for (const at of [300, 700]) {
    for (let i = 0; i < PCM_RATE / 50; i++)
      samples[(at * PCM_RATE) / 1000 + i] = Math.round(
        12000 * Math.sin((2 * Math.PI * 1000 * i) / PCM_RATE),
      );
  }
  const phones = [
    { text: 'pau', startMs: 0, endMs: 240 },
    { text: 'aa', startMs: 240, endMs: 560 },
    { text: 'm', startMs: 560, endMs: 640 },
    { text: 'aa', startMs: 640, endMs: 960 },
    { text: 'pau', startMs: 960, endMs: 1200 },
  ];
  return { sampleRate: PCM_RATE, samples, durationMs: 1200, phones };
}

function decodeVideo(mp4: Buffer): { out: Buffer; err: string } {
  const args = ['-map', '0:v', '-f', 'rawvideo', '-pix_fmt', 'rgb24'];
  const r = spawnSync(ffmpegPath(), ['-v', 'error', '-i', 'pipe:0', ...args, 'pipe:1'], {
    input: mp4,
    maxBuffer: 1e9,
  });
  return { out: r.stdout, err: r.stderr.toString() };
}

const meanDiff = (a: Uint8Array, b: Uint8Array) => {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
  return d / a.length;
};

describe('talking spliced from the mouth-shape bank', () => {
  it('decodes cleanly, shows the mouth the lip sync asks for, and keeps the live timing and sound', async () => {
    const bank = await visemeBank(face);
    // Splices into the session's timeline: the bank's init segment is the live encoder's.
    expect(bank.init.equals(await liveInit(W, H))).toBe(true);
    const s = speech();
    const out: Buffer[] = [bank.init];
    const talk = spliceTalk(bank, s, (f) => out.push(f.data));
    await talk.done;
    const mp4 = Buffer.concat(out);
    // flite-style leading pause trimmed to the lead-in: 240 - 40 ms.
    expect(talk.trimMs).toBe(240 - LEAD_IN_MS);

    const { video, audio } = timings(mp4);
    expect(video.odd).toEqual([]);
    expect(video.gaps).toEqual([]);
    expect(audio.gaps).toEqual([]);
    expect(video.fragmentEnds).toEqual(audio.fragmentEnds);
    for (let k = 0; k < video.fragmentEnds.length; k++)
      expect(video.fragmentEnds[k]).toBeCloseTo((k + 1) * UNIT_MS, 6);

    const { out: rgb, err } = decodeVideo(mp4);
    expect(err).toBe('');
    const size = W * H * 3;
    expect(rgb.length / size).toBe(video.frames);
    // Every decoded frame is the face with the mouth the track asks for at that time: no
    // drift from the keyframe, whatever order the shapes came in.
    const mouthAt = (i: number) => {
      const t = (i * 1000) / MEDIA_FPS + talk.trimMs;
      return t >= 240 && t < 560 ? 1 : t >= 640 && t < 960 ? 1 : -1;
    };
    const closed = face.frames.render({ mouth: 0, eyes: 1 });
    const open = Buffer.from(face.frames.render({ mouth: 1, eyes: 1 }));
    let opened = 0;
    for (let i = 0; i < video.frames; i++) {
      const frame = rgb.subarray(i * size, (i + 1) * size);
      const t = (i * 1000) / MEDIA_FPS + talk.trimMs;
      // Skip the 50 ms blends between phones.
      if ([240, 560, 640, 960].some((edge) => t >= edge && t < edge + 50)) continue;
      const want = mouthAt(i) === 1 ? open : closed;
      const other = mouthAt(i) === 1 ? closed : open;
      expect(meanDiff(frame, want)).toBeLessThan(meanDiff(frame, other));
      expect(meanDiff(frame, want)).toBeLessThan(3);
      if (mouthAt(i) === 1) opened++;
    }
    expect(opened).toBeGreaterThan(8);

    // The sound plays where it was fed (speech time t at clip time t - trimMs).
    const onsets = burstsMs(mp4);
    expect(onsets).toHaveLength(2);
    onsets.forEach((t, k) => expect(Math.abs(t - ([300, 700][k]! - talk.trimMs))).toBeLessThan(1));

    // Later replies share the long-lived audio encoders: their sound is in place too.
    for (let n = 0; n < 4; n++) {
      const again: Buffer[] = [bank.init];
      const t = spliceTalk(bank, speech(), (f) => again.push(f.data));
      await t.done;
      const at = burstsMs(Buffer.concat(again));
      expect(at).toHaveLength(2);
      at.forEach((x, k) => expect(Math.abs(x - ([300, 700][k]! - t.trimMs))).toBeLessThan(1));
    }
  });
});

describe('a spliced fragment, laid out at once', () => {
  const tracks: TrackInfo[] = [
    {
      id: 1,
      kind: 'video',
      timescale: 12800,
      codec: 'avc1.42c01e',
      defaultSampleDuration: 512,
      width: 352,
      height: 480,
    },
    {
      id: 2,
      kind: 'audio',
      timescale: 32000,
      codec: 'mp4a.40.2',
      defaultSampleDuration: 1024,
      width: 0,
      height: 0,
    },
  ];
  const bytes = (n: number, seed: number) =>
    Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 255));
  it.each([
    ['a keyframe first', 0x02000000, 0],
    ['delta frames only', 0x01010000, 5 * 2048],
    ['far on the timeline (64-bit tfdt)', 0x01010000, 2 ** 40],
  ])(
    '%s: the parser reads back the timing, the keyframe flag and every sample where it was put',
    (_, flags, start) => {
      const video = [bytes(1500, 1), bytes(37, 2), bytes(0, 3), bytes(999, 4)].map((data, i) => ({
        data,
        flags: i === 0 ? flags : 0x01010000,
      }));
      const audio = Array.from({ length: 5 }, (_, i) => ({
        data: bytes(100 + i, 9 + i),
        flags: 0x02000000,
      }));
      const runs = [
        { id: 1, start, duration: 512, samples: video },
        { id: 2, start: start * 2.5, duration: 1024, samples: audio },
      ];
      const f = writeFragment(runs, tracks);
      expect(readFragment(f.data, tracks)).toEqual(f);
      expect(f.key).toBe(flags === 0x02000000);
      expect(f.tracks.map((t) => t.duration)).toEqual([4 * 512, 5 * 1024]);
      const moof = findBox(f.data, ['moof'])[0]!;
      const trafs = findBox(moof, ['traf']);
      expect(trafs).toHaveLength(2);
      trafs.forEach((traf, k) => {
        expect(parseTfhd(findBox(traf, ['tfhd'])[0]!).trackId).toBe(runs[k]!.id);
        const trun = parseTrun(findBox(traf, ['trun'])[0]!);
        let at = trun.dataOffset!;
        trun.samples.forEach((x, i) => {
          expect(x.duration).toBe(runs[k]!.duration);
          expect(f.data.subarray(at, at + x.size!).equals(runs[k]!.samples[i]!.data)).toBe(true);
          at += x.size!;
        });
      });
      // Audio only, and a video run with no samples: no keyframe, the same read back.
      const audioOnly = writeFragment([runs[1]!], tracks);
      expect(readFragment(audioOnly.data, tracks)).toEqual(audioOnly);
      const noPictures = writeFragment([{ ...runs[0]!, samples: [] }, runs[1]!], tracks);
      expect(readFragment(noPictures.data, tracks)).toEqual(noPictures);
      expect(noPictures.key).toBe(false);
      // The mdat ends the fragment, sized to hold every sample.
      expect(f.data.readUInt32BE(f.data.length - 8 - 1500 - 37 - 999 - 510)).toBe(
        8 + 1500 + 37 + 999 + 510,
      );
    },
  );
});
