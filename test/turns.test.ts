/**
 * The edge's turn-taking rules (issue 8 item 4), each driven by frames or a manual clock:
 * utterance detection (on real flite speech through the real VAD, and on scripted VAD
 * decisions for exact boundaries), partials, the greeting hold, barge-in and the text of a
 * reply cut short.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import type { Recognition, Recognizer } from '../src/models/recognizer.js';
import { PocketsphinxRecognizer, probePocketsphinx } from '../src/models/recognizer/index.js';
import type { Vad } from '../src/models/vad.js';
import { createWebRtcVad } from '../src/models/vad/index.js';
import {
  BargeIn,
  GreetingHold,
  PARTIAL_PLACEHOLDER,
  PartialPolicy,
  UtteranceDetector,
  playedText,
  type GreetingReason,
  type UtteranceEvent,
} from '../src/edge/turns/index.js';
import { concat, frames, silence, speak } from './helpers/speech.js';

/** A VAD that follows a script, one character per frame: 'S' speech, '.' silence. */
class ScriptedVad implements Vad {
  private i = 0;
  constructor(private readonly script: string) {}
  isSpeech(): boolean {
    return this.script[this.i++] === 'S';
  }
  reset(): void {}
}

const FRAME = new Int16Array(1600);
function feed(
  script: string,
  opts = {},
): { events: UtteranceEvent[]; at: (e: UtteranceEvent) => number } {
  const d = new UtteranceDetector(new ScriptedVad(script), opts);
  const events = Array.from(script).flatMap(() => d.push(FRAME));
  events.push(...d.flush());
  return { events, at: (e) => e.atMs };
}
const kinds = (events: UtteranceEvent[]) =>
  events.map((e) =>
    e.type === 'utterance-end' ? `end:${e.reason}@${e.atMs}` : `${e.type}@${e.atMs}`,
  );

describe('utterance detection', () => {
  it('finds one utterance in real speech, with its onset and its end', async () => {
    const s = await speak('Hello, what is your name and where do you live?');
    const audio = concat(silence(1000), s, silence(1500));
    const d = new UtteranceDetector(await createWebRtcVad());
    const events = frames(audio).flatMap((f) => d.push(f));
    const starts = events.filter((e) => e.type === 'speech-start');
    const ends = events.filter((e) => e.type === 'utterance-end');
    expect(starts).toHaveLength(1);
    expect(ends).toHaveLength(1);
    expect(starts[0].atMs).toBeGreaterThan(1000);
    expect(starts[0].atMs).toBeLessThanOrEqual(1500);
    const end = ends[0] as Extract<UtteranceEvent, { type: 'utterance-end' }>;
    expect(end.reason).toBe('silence');
    const speechEndMs = 1000 + s.length / 16;
    expect(end.atMs).toBeGreaterThan(speechEndMs);
    expect(end.atMs).toBeLessThanOrEqual(speechEndMs + 1000);
    // The utterance starts before the VAD was sure (pre-roll) and holds all of the speech.
    expect(end.samples.length / 16).toBeGreaterThanOrEqual(s.length / 16);
    expect(events.filter((e) => e.type === 'partial-due').length).toBeGreaterThanOrEqual(1);
  });

  it('ignores a click shorter than the minimum speech', () => {
    expect(feed('....S.....S.....').events).toEqual([]);
  });

  it('keeps a short pause inside one utterance and splits at a long one', () => {
    expect(kinds(feed('..SSSS.....SSSS........').events)).toEqual([
      'speech-start@400',
      'partial-due@1400',
      'end:silence@2200',
    ]);
    expect(kinds(feed('..SSSS........SSSS........').events)).toEqual([
      'speech-start@400',
      'end:silence@1300',
      'speech-start@1600',
      'end:silence@2500',
    ]);
  });

  it('counts the hangover from the last speech frame', () => {
    expect(kinds(feed('SS...', { hangoverMs: 300 }).events)).toEqual([
      'speech-start@200',
      'end:silence@500',
    ]);
  });

  it('ends an utterance that never pauses at the maximum length, and goes on', () => {
    const { events } = feed('S'.repeat(200) + '.'.repeat(10), {
      maxUtteranceMs: 15_000,
      partialEveryMs: 5_000,
    });
    const k = kinds(events);
    expect(k[0]).toBe('speech-start@200');
    expect(k).toContain('end:max-length@15000');
    expect(k[k.indexOf('end:max-length@15000') + 1]).toBe('speech-start@15100');
    expect(k.at(-1)).toBe('end:silence@20700');
    expect(k.filter((x) => x.startsWith('partial-due'))).toEqual([
      'partial-due@5200',
      'partial-due@10200',
      'partial-due@20100',
    ]);
  });

  it('sends partials on schedule with the audio so far', () => {
    const { events } = feed('SSSSSSSSSSSSSSSSSSSSSSSS.......');
    const partials = events.filter((e) => e.type === 'partial-due') as Extract<
      UtteranceEvent,
      { type: 'partial-due' }
    >[];
    expect(partials.map((p) => p.atMs)).toEqual([1200, 2200]);
    expect(partials[1].samples.length).toBeGreaterThan(partials[0].samples.length);
  });

  it('ends the utterance under way when the mic closes', () => {
    expect(kinds(feed('..SSSS').events)).toEqual(['speech-start@400', 'end:flush@600']);
  });

  it('refuses a frame that is not 100 ms', () => {
    const d = new UtteranceDetector(new ScriptedVad('S'));
    expect(() => d.push(new Int16Array(1599))).toThrow(/1600 samples/);
  });
});

/** A recogniser whose results the test hands out, to watch the policy's timing. */
class HeldRecognizer implements Recognizer {
  readonly name = 'held';
  readonly available = true;
  calls: { samples: number; resolve: (r: Recognition) => void }[] = [];
  transcribe(samples: Int16Array): Promise<Recognition> {
    return new Promise((resolve) => this.calls.push({ samples: samples.length, resolve }));
  }
}

describe('partials', () => {
  it('sends an honest placeholder, never words, without a recogniser', async () => {
    const p = new PartialPolicy({ recognizer: null });
    expect(p.onSpeechStart()).toBe(PARTIAL_PLACEHOLDER);
    expect(await p.onPartialDue(new Int16Array(16000), 1000)).toBeNull();
    expect(
      new PartialPolicy({
        recognizer: {
          name: 'none',
          available: false,
          transcribe: async () => ({ text: 'x', recognised: false }),
        },
      }).onSpeechStart(),
    ).toBe(PARTIAL_PLACEHOLDER);
  });

  it('re-recognises at most every interval, one at a time, and only sends changes', async () => {
    const rec = new HeldRecognizer();
    const p = new PartialPolicy({ recognizer: rec, minIntervalMs: 1000 });
    expect(p.onSpeechStart()).toBeNull();
    const first = p.onPartialDue(new Int16Array(16000), 1000);
    expect(await p.onPartialDue(new Int16Array(32000), 2000)).toBeNull(); // one already running
    rec.calls[0].resolve({ text: 'hello', recognised: true });
    expect(await first).toBe('hello');
    expect(await p.onPartialDue(new Int16Array(24000), 1500)).toBeNull(); // too soon
    const same = p.onPartialDue(new Int16Array(48000), 3000);
    rec.calls[1].resolve({ text: 'hello', recognised: true });
    expect(await same).toBeNull(); // unchanged
    const more = p.onPartialDue(new Int16Array(64000), 4000);
    rec.calls[2].resolve({ text: 'hello there', recognised: true });
    expect(await more).toBe('hello there');
    expect(rec.calls.map((c) => c.samples)).toEqual([16000, 48000, 64000]);
  });

  it('drops a partial that arrives after its utterance ended', async () => {
    const rec = new HeldRecognizer();
    const p = new PartialPolicy({ recognizer: rec });
    p.onSpeechStart();
    const late = p.onPartialDue(new Int16Array(16000), 1000);
    p.onUtteranceEnd();
    rec.calls[0].resolve({ text: 'hello', recognised: true });
    expect(await late).toBeNull();
  });

  const probe = probePocketsphinx();
  it.skipIf(!probe.binary || !probe.modelDir)(
    'gives the words heard so far with pocketsphinx',
    async () => {
      const s = await speak(
        'Good morning, I would like to book a table for two people tomorrow evening.',
      );
      const d = new UtteranceDetector(await createWebRtcVad(), { partialEveryMs: 1500 });
      const p = new PartialPolicy({
        recognizer: new PocketsphinxRecognizer({ binary: probe.binary! }),
        minIntervalMs: 1500,
      });
      let partial: string | null = null;
      for (const f of frames(concat(silence(500), s))) {
        for (const e of d.push(f)) {
          if (e.type === 'speech-start') p.onSpeechStart();
          if (e.type === 'partial-due' && !partial)
            partial = await p.onPartialDue(e.samples, e.atMs);
        }
      }
      expect(partial).toMatch(/morning/);
      expect(partial).not.toMatch(/evening/);
    },
  );
});

describe('greeting hold', () => {
  function hold(opts: { enabled?: boolean; holdMs?: number } = {}) {
    const clock = new ManualClock();
    const greets: GreetingReason[] = [];
    const h = new GreetingHold({ ...opts, clock, onGreet: (r) => greets.push(r) });
    return { clock, greets, h };
  }

  it('waits the default 2000 ms for context, then greets anyway', () => {
    const { clock, greets, h } = hold();
    h.start();
    clock.advance(1999);
    expect(greets).toEqual([]);
    expect(h.state).toBe('holding');
    clock.advance(1);
    expect(greets).toEqual(['hold-expired']);
  });

  it('greets as soon as context arrives, and only once', () => {
    const { clock, greets, h } = hold();
    h.start();
    clock.advance(500);
    h.contextArrived();
    expect(greets).toEqual(['context']);
    clock.advance(5000);
    h.contextArrived();
    expect(greets).toEqual(['context']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('drops the greeting when the user takes the first turn', () => {
    const { clock, greets, h } = hold({ holdMs: 3000 });
    h.start();
    clock.advance(1000);
    h.userTookTurn();
    clock.advance(5000);
    expect(greets).toEqual([]);
    expect(h.state).toBe('skipped');
  });

  it('greets at once with a hold of 0, never when disabled, and clamps the hold to 5000', () => {
    const zero = hold({ holdMs: 0 });
    zero.h.start();
    expect(zero.greets).toEqual(['no-hold']);
    const off = hold({ enabled: false });
    off.h.start();
    off.clock.advance(10_000);
    off.h.contextArrived();
    expect(off.greets).toEqual([]);
    const long = hold({ holdMs: 60_000 });
    long.h.start();
    long.clock.advance(5000);
    expect(long.greets).toEqual(['hold-expired']);
  });
});

describe('barge-in', () => {
  it('interrupts a reply after 300 ms of user speech, once per reply', () => {
    const b = new BargeIn();
    expect(b.update(200, true)).toBe(false);
    expect(b.update(300, true)).toBe(true);
    expect(b.update(400, true)).toBe(false);
    expect(b.update(0, false)).toBe(false); // the reply ended
    expect(b.update(300, true)).toBe(true); // the next reply can be interrupted again
  });

  it('never interrupts while the avatar is silent, nor for a cough', () => {
    const b = new BargeIn();
    expect(b.update(2000, false)).toBe(false);
    expect(b.update(100, true)).toBe(false);
    expect(b.update(0, true)).toBe(false);
    expect(b.update(200, true)).toBe(false);
  });

  it('fires on real speech three frames after it begins', async () => {
    const d = new UtteranceDetector(await createWebRtcVad());
    const b = new BargeIn();
    const audio = concat(silence(500), await speak('Wait, stop please.'));
    const fired = frames(audio).map((f) => (d.push(f), b.update(d.speechRunMs, true)));
    const at = fired.indexOf(true);
    expect(fired.filter(Boolean)).toHaveLength(1);
    expect(at * 100).toBeGreaterThanOrEqual(500 + 200);
    expect(at * 100).toBeLessThanOrEqual(500 + 600);
  });
});

describe('the text that was actually said', () => {
  const reply = 'I grew up in Lisbon, Portugal. I love sailing.';
  const words = ['I', 'grew', 'up', 'in', 'Lisbon', 'Portugal', 'I', 'love', 'sailing'].map(
    (text, i) => ({ text, startMs: i * 300, endMs: i * 300 + 300 }),
  );
  const speech = { durationMs: 2700, words };

  it('keeps the words whose middle was played, in the reply own spelling', () => {
    expect(playedText(reply, 1500, speech)).toEqual({
      text: 'I grew up in Lisbon,',
      complete: false,
    });
    expect(playedText(reply, 1949, speech)).toEqual({
      text: 'I grew up in Lisbon, Portugal.',
      complete: false,
    });
  });

  it('keeps everything when the reply played to the end, and nothing when none of it did', () => {
    expect(playedText(reply, 2700, speech)).toEqual({ text: reply, complete: true });
    expect(playedText(reply, 100, speech)).toEqual({ text: '', complete: false });
  });

  it('spreads the words over the speech when the voice gave no word timings', () => {
    expect(playedText(reply, 1350, { durationMs: 2700 }).text).toBe('I grew up in');
  });

  it('scales when the voice spoke more words than the text has', () => {
    const marks = ['born', 'in', 'nineteen', 'ninety', 'nine'].map((text, i) => ({
      text,
      startMs: i * 200,
      endMs: i * 200 + 200,
    }));
    expect(playedText('Born in 1999.', 500, { durationMs: 1000, words: marks }).text).toBe('Born');
  });
});
