import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';
import { encoderStats, framesFor, warmEncoder } from '../src/media/encoder.js';
import { encodeTalk, leadingSilenceMs } from '../src/media/talk-clip.js';
import { faceFromPhoto, faceFromStyle } from '../src/media/face-source.js';
import { parseInit, readFragment } from '../src/media/fmp4.js';
import { loadIdleLoop } from '../src/media/idle-loop.js';
import {
  createSessionStream,
  type FragmentInfo,
  type SessionStream,
} from '../src/media/session-stream.js';
import { FliteVoice } from '../src/models/voice/index.js';
import { rgbFrames } from './helpers/generation-media.js';
import { waitUntil } from './helpers/wait.js';

/**
 * The session media stream on an injected clock: one continuous fMP4 timeline (init once,
 * monotonic tfdt, mfhd 1, 2, 3...), paced by the clock, idle loop re-timed while listening
 * (no encode), talking segments encoded live, cut on interrupt.
 */
const ctx = { fixturesDir: FIXTURES_DIR } as Parameters<typeof personaStyle>[0];
const face = faceFromStyle(personaStyle(ctx, 'ava')!);
const idle = loadIdleLoop(readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'idle.mp4')));
const voice = new FliteVoice();

interface Sent {
  buf: Buffer;
  info: FragmentInfo;
}

let stream: SessionStream | null = null;
afterEach(() => stream?.close());

function open(opts: {
  idle?: typeof idle | null;
  clock: ManualClock;
  photo?: Awaited<ReturnType<typeof faceFromPhoto>>;
}) {
  const sent: Sent[] = [];
  const recorded: Buffer[] = [];
  stream = createSessionStream({
    face: opts.photo ?? face,
    idle: opts.idle === undefined ? idle : opts.idle,
    clock: opts.clock,
    onRecord: (b) => recorded.push(b),
  });
  stream.on('fragment', (buf, info) => sent.push({ buf, info }));
  return { s: stream, sent, recorded };
}

/**
 * Check the timeline: sequence numbers 1..n; each track's tfdt starts exactly where the
 * track's last fragment ended (no gap at any join, docs/media.md "Clip joins"); every
 * fragment starts and ends its audio and video together.
 */
function checkTimeline(init: Buffer, sent: Sent[]): void {
  const tracks = parseInit(init);
  const end = new Map<number, number>();
  sent.forEach(({ buf, info }, i) => {
    const f = readFragment(buf, tracks);
    expect(buf.readUInt32BE(f.mfhdAt)).toBe(i + 1);
    expect(info.durationMs).toBeLessThanOrEqual(250);
    const ms = (t: { id: number }, ticks: number) =>
      ((ticks * 1000) / tracks.find((x) => x.id === t.id)!.timescale).toFixed(3);
    expect(new Set(f.tracks.map((t) => ms(t, t.start))).size).toBe(1);
    expect(new Set(f.tracks.map((t) => ms(t, t.start + t.duration))).size).toBe(1);
    for (const t of f.tracks) {
      const prev = end.get(t.id);
      if (prev !== undefined) expect(t.start).toBe(prev);
      end.set(t.id, t.start + t.duration);
    }
  });
}

describe('session stream', () => {
  it('while listening replays the idle loop at real time, re-timed, with no encoder', async () => {
    const clock = new ManualClock();
    const { s, sent, recorded } = open({ clock });
    await s.ready();
    expect(s.mime).toMatch(/^video\/mp4; codecs="avc1\.42c0[0-9a-f]{2}, mp4a\.40\.2"$/);
    expect(s.initSegment.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const before = encoderStats.clips;
    await waitUntil(() => sent.length > 0, 10_000, 'the first fragment');
    for (let t = 0; t < 10_000; t += 40) clock.advance(40);
    // Ten seconds on the clock is ten seconds of media (plus the small lead), across loop repeats.
    const mediaEnd = sent.at(-1)!.info.startMs + sent.at(-1)!.info.durationMs;
    expect(mediaEnd).toBeGreaterThan(10_000);
    expect(mediaEnd).toBeLessThan(10_500);
    expect(s.clockMs).toBe(10_000);
    expect(s.bufferedMs).toBeLessThan(500);
    expect(new Set(sent.map((x) => x.info.kind))).toEqual(new Set(['idle']));
    expect(encoderStats.clips).toBe(before);
    expect(s.state).toBe('listening');
    checkTimeline(s.initSegment, sent);
    expect(recorded[0]).toBe(s.initSegment);
    expect(recorded.length).toBe(sent.length + 1);
  });

  it('speaks a reply as talking fragments on the same timeline, then returns to idle', async () => {
    const clock = new ManualClock();
    const { s, sent } = open({ clock });
    await s.ready();
    await waitUntil(() => sent.length > 0, 10_000, 'the first fragment');
    clock.advance(1000);
    const speech = await voice.synthesize('Hello, I am Ava. It is good to see you.');
    const states: string[] = [];
    s.on('state', (st) => states.push(st));
    const reply = s.speak(speech);
    expect(s.state).toBe('speaking');
    // With the clock held still, the first talking fragment goes out as soon as it is encoded.
    await waitUntil(
      () => sent.some((x) => x.info.kind === 'talk'),
      10_000,
      'the first talk fragment',
    );
    let result: { playedMs: number; interrupted: boolean } | null = null;
    void reply.done.then((r) => (result = r));
    for (let i = 0; i < 400 && !result; i++) {
      clock.advance(40);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(result).toEqual({ playedMs: speech.durationMs, interrupted: false });
    expect(states).toEqual(['speaking', 'listening']);
    clock.advance(1000);
    const kinds = sent.map((x) => x.info.kind);
    const firstTalk = kinds.indexOf('talk');
    const lastTalk = kinds.lastIndexOf('talk');
    expect(kinds.slice(firstTalk, lastTalk + 1).every((k) => k === 'talk')).toBe(true);
    expect(kinds.slice(lastTalk + 1)).toContain('idle');
    // All of the speech went out, less the leading pause trimmed to LEAD_IN_MS.
    const talkMs = sent
      .filter((x) => x.info.kind === 'talk')
      .reduce((a, x) => a + x.info.durationMs, 0);
    expect(talkMs).toBeGreaterThanOrEqual(speech.durationMs - leadingSilenceMs(speech));
    checkTimeline(s.initSegment, sent);
  });

  it('plays a reply queued while another is playing in full, straight after it', async () => {
    const clock = new ManualClock();
    const { s, sent } = open({ clock });
    await s.ready();
    await waitUntil(() => sent.length > 0, 10_000, 'the first fragment');
    const one = await voice.synthesize('This is the first sentence of a longer answer.');
    const two = await voice.synthesize('And this is the second one, queued while the first plays.');
    const first = s.speak(one);
    await waitUntil(
      () => sent.some((x) => x.info.kind === 'talk'),
      10_000,
      'the first talk fragment',
    );
    for (let i = 0; i < 10; i++) {
      clock.advance(40);
      await new Promise((r) => setTimeout(r, 2));
    }
    const second = s.speak(two); // queued mid-reply, as the edge does sentence by sentence
    const results: Array<{ playedMs: number; interrupted: boolean }> = [];
    void first.done.then((r) => results.push(r));
    void second.done.then((r) => results.push(r));
    for (let i = 0; i < 600 && results.length < 2; i++) {
      clock.advance(40);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(results).toEqual([
      { playedMs: one.durationMs, interrupted: false },
      { playedMs: two.durationMs, interrupted: false },
    ]);
    // One run of talking fragments, no idle in between, and all of both replies went out.
    const kinds = sent.map((x) => x.info.kind);
    const talk = kinds.slice(kinds.indexOf('talk'), kinds.lastIndexOf('talk') + 1);
    expect(talk.every((k) => k === 'talk')).toBe(true);
    const talkMs = sent
      .filter((x) => x.info.kind === 'talk')
      .reduce((a, x) => a + x.info.durationMs, 0);
    expect(talkMs).toBeGreaterThanOrEqual(one.durationMs + two.durationMs - 400);
    checkTimeline(s.initSegment, sent);
  });

  it('interrupt() cuts the reply at the next fragment and says how much was heard', async () => {
    const clock = new ManualClock();
    const { s, sent } = open({ clock, idle: null });
    await s.ready();
    await waitUntil(() => sent.length > 0, 10_000, 'the first fragment');
    expect(sent[0]!.info.kind).toBe('still'); // no idle loop yet: a still frame
    const speech = await voice.synthesize(
      'This is a long answer that the user is going to interrupt before it is finished, sadly.',
    );
    const reply = s.speak(speech);
    const queued = s.speak(speech);
    await waitUntil(
      () => sent.some((x) => x.info.kind === 'talk'),
      10_000,
      'the first talk fragment',
    );
    for (let i = 0; i < 25; i++) {
      clock.advance(40);
      await new Promise((r) => setTimeout(r, 2));
    }
    const talkSent = sent.filter((x) => x.info.kind === 'talk').length;
    // The queued reply first (cutting the playing one would start it: it is ready).
    expect(queued.interrupt()).toBe(0);
    const played = reply.interrupt();
    expect(played).toBeGreaterThan(500);
    expect(played).toBeLessThan(speech.durationMs - 1000);
    expect(reply.interrupt()).toBe(played);
    expect(await reply.done).toEqual({ playedMs: played, interrupted: true });
    expect(await queued.done).toEqual({ playedMs: 0, interrupted: true });
    for (let i = 0; i < 50; i++) clock.advance(40);
    // Nothing more of the reply went out: the cut is at the fragment boundary.
    expect(sent.filter((x) => x.info.kind === 'talk').length).toBe(talkSent);
    expect(sent.at(-1)!.info.kind).toBe('still');
    expect(s.state).toBe('listening');
    checkTimeline(s.initSegment, sent);
  });

  it('keeps what a player joining now needs: the fragments since the last keyframe', async () => {
    const clock = new ManualClock();
    const { s, sent } = open({ clock });
    await s.ready();
    await waitUntil(() => sent.length > 0, 10_000, 'the first fragment');
    const tracks = parseInit(s.initSegment);
    const isKey = (b: Buffer) => readFragment(b, tracks).key;
    for (let t = 0; t < 3000; t += 40) clock.advance(40);
    // Three seconds in: the idle loop's keyframes are at 0 and 1.92 s; the catch-up starts at the second.
    const late = s.catchUp;
    expect(isKey(late[0]!)).toBe(true);
    expect(late.slice(1).some(isKey)).toBe(false);
    expect(late.at(-1)).toBe(sent.at(-1)!.buf);
    const keysSent = sent.filter((x) => isKey(x.buf));
    expect(keysSent.length).toBeGreaterThanOrEqual(2);
    expect(late[0]).toBe(keysSent.at(-1)!.buf);
    // A reply starts on a keyframe: a player joining during it starts there.
    s.speak(await voice.synthesize('Hello there, nice to see you again.'));
    await waitUntil(
      () => sent.some((x) => x.info.kind === 'talk'),
      10_000,
      'the first talk fragment',
    );
    expect(s.catchUp[0]).toBe(sent.find((x) => x.info.kind === 'talk')!.buf);
  });

  it('a reply from a primed spare encoder carries no primer frames and starts on a keyframe', async () => {
    warmEncoder(352, 480);
    const speech = await voice.synthesize('Hello from a primed encoder.');
    const parts: Buffer[] = [];
    const talk = encodeTalk(
      face,
      speech,
      (init) => parts.push(init),
      (f) => parts.push(f.data),
    );
    await talk.done;
    expect(talk.speechStartMs).toBe(160); // this one came primed: its primer unit is dropped
    const raw = await rgbFrames(Buffer.concat(parts));
    const size = 352 * 480 * 3;
    const trimmed = speech.durationMs - talk.trimMs;
    expect(raw.length / size).toBe(framesFor(trimmed));
    // The first frame is the face (decodes on its own: an IDR), not the grey primer.
    const first = raw.subarray(0, size);
    const still = face.frames.render({ mouth: 0, eyes: 1 });
    let diff = 0;
    for (let i = 0; i < size; i++) diff += Math.abs(first[i]! - still[i]!);
    expect(diff / size).toBeLessThan(6);
  });

  it('opens the mouth on an uploaded photo', async () => {
    const photo = await faceFromPhoto(
      readFileSync(join(FIXTURES_DIR, 'personas', 'leo', 'face.png')),
    );
    const closed = Buffer.from(photo.frames.render({ mouth: 0, eyes: 1 }));
    const open = photo.frames.render({ mouth: 0.9, eyes: 1 });
    let changed = 0;
    for (let i = 0; i < closed.length; i += 3) if (Math.abs(closed[i]! - open[i]!) > 30) changed++;
    expect(changed).toBeGreaterThan(200);
    expect(changed).toBeLessThan(closed.length / 3 / 10); // the mouth region, not the whole frame
  });
});
