import { describe, expect, it } from 'vitest';
import { LiveSession } from '../src/edge/session/live-session.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import { ManualClock } from '../src/emulator/clock.js';
import {
  fakeStream,
  GatedBrain,
  recordingChannel,
  testSnapshot,
  turnLoopOn,
  wordTimedVoice,
} from './helpers/turn-loop.js';
import { waitUntil } from './helpers/wait.js';
import { LocalBrain } from '../src/models/brain/local.js';
import type { Brain, BrainRequest, Voice } from '../src/models/index.js';

/**
 * A reply the brain fails to finish (an --llm-url upstream down or cut mid-stream): the
 * user's turn still reaches the transcript (turn-queue.ts: every accepted user turn does),
 * with the words actually said, the error goes out as `turn_failed`, nothing keeps
 * talking while the session reads `listening`, and the next turn is answered.
 */
/**
 * Says `before` (if any), then fails when the test calls fail() (so a sentence said before
 * the failure can be on air first); after `failures` failed replies it is the local brain.
 */
class FailingBrain implements Brain {
  readonly name = 'failing';
  private readonly local = new LocalBrain();
  private failNow!: () => void;
  private readonly failing = new Promise<void>((r) => (this.failNow = r));
  constructor(
    private failures: number,
    private readonly before = '',
  ) {}
  /** The upstream fails now: a reply waiting for it throws. */
  fail(): void {
    this.failNow();
  }
  reply(req: BrainRequest) {
    if (this.failures-- <= 0) return this.local.reply(req);
    const before = this.before;
    const failing = this.failing;
    async function* deltas() {
      if (before) yield before;
      await failing;
      throw new Error('upstream answered 502');
    }
    return { deltas: deltas(), usage: Promise.resolve({ promptTokens: 0, completionTokens: 0 }) };
  }
}

/**
 * Wait for `done` while the fake streams play on the test's clock: before each look the
 * clock moves on 30 ms (a fake speech's play time), so what is on air plays out without
 * any real time passing.
 */
function driveUntil(clock: ManualClock, done: () => boolean): Promise<void> {
  return waitUntil(() => {
    clock.advance(30);
    return done();
  });
}

/** A rendering session with the greeting on (hold 0), and a channel that keeps what it is sent. */
function greetingSession(clock: ManualClock) {
  const live = new LiveSession(
    testSnapshot('sess-turn-failed-0001', { render: true, greeting_enabled: true }),
    clock,
    { ended: () => undefined },
  );
  const ch = recordingChannel();
  live.attach(ch);
  return { live, ch };
}

describe('a reply the brain fails to finish', () => {
  it('brain-only: the user turn is stored unanswered, turn_failed goes out, and the next turn is answered', async () => {
    const clock = new ManualClock();
    const live = new LiveSession(testSnapshot('sess-turn-failed-0001', { render: false }), clock, {
      ended: () => undefined,
    });
    const ch = recordingChannel();
    live.attach(ch);
    const brain = new FailingBrain(1);
    const parts = { brain, recognizer: {} } as unknown as EdgeParts;
    const { loop, stored } = turnLoopOn(live, { parts, clock });
    loop.userTurn('Where do you live?');
    brain.fail();
    await waitUntil(() => ch.sent.some((m) => m.type === 'error'));
    expect(ch.sent.find((m) => m.type === 'error')).toMatchObject({
      error: 'turn_failed',
      detail: 'upstream answered 502',
    });
    expect(stored.map((t) => [t.seq, t.user_text, t.reply_text, t.outcome])).toEqual([
      [0, 'Where do you live?', '', 'unanswered'],
    ]);
    expect(loop.state).toBe('listening');

    loop.userTurn('What do you do?');
    await waitUntil(() => stored.length === 2);
    expect(stored[1]).toMatchObject({ seq: 1, user_text: 'What do you do?', outcome: 'text' });
    expect(stored[1]!.reply_text.length).toBeGreaterThan(0);
    live.end('closed');
  });

  it('spoken: the sentence on air is cut, and the stored reply is what was said before the failure', async () => {
    const clock = new ManualClock();
    const live = new LiveSession(testSnapshot('sess-turn-failed-0001', { render: true }), clock, {
      ended: () => undefined,
    });
    const ch = recordingChannel();
    live.attach(ch);
    // A sentence of 4 words, one word per 250 ms; 600 ms of it were on air at the cut.
    const words = ['I', 'live', 'in', 'Lisbon.'].map((text, i) => ({
      text,
      startMs: i * 250,
      endMs: i * 250 + 240,
    }));
    const voice: Voice = {
      name: 'fake',
      voices: [],
      synthesize: async () => ({
        sampleRate: 16000,
        samples: new Int16Array(16000),
        durationMs: 1000,
        words,
      }),
    };
    const cuts: number[] = [];
    let onAir = false;
    const stream = fakeStream(() => {
      onAir = true;
      let finish!: () => void;
      const done = new Promise<void>((r) => (finish = r));
      return {
        done,
        started: Promise.resolve(),
        interrupt: () => {
          cuts.push(600);
          onAir = false;
          finish();
          return 600;
        },
      };
    });
    const brain = new FailingBrain(1, 'I live in Lisbon. And every');
    const parts = {
      brain,
      recognizer: {},
      voice,
    } as unknown as EdgeParts;
    const { loop, stored } = turnLoopOn(live, { parts, clock, stream });
    loop.userTurn('Where do you live?');
    // The upstream fails once the sentence said before the failure is on air.
    await waitUntil(() => onAir);
    brain.fail();
    await waitUntil(() => ch.sent.some((m) => m.type === 'error'));
    expect(ch.sent.find((m) => m.type === 'error')).toMatchObject({ error: 'turn_failed' });
    // Nothing goes on talking while the session says it listens.
    expect(cuts).toEqual([600]);
    expect(onAir).toBe(false);
    expect(loop.state).toBe('listening');
    expect(stored.map((t) => [t.user_text, t.reply_text, t.outcome])).toEqual([
      ['Where do you live?', 'I live', 'interrupted'],
    ]);
    live.end('closed');
  });
});

describe('a greeting cut before a word of it was said', () => {
  it('a typed turn while the greeting is being made leaves no empty turn in the transcript', async () => {
    const clock = new ManualClock();
    const { live, ch } = greetingSession(clock);
    const voice: Voice = {
      name: 'fake',
      voices: [],
      synthesize: async (text) => ({
        sampleRate: 16000,
        samples: new Int16Array(16 * 60 * text.length),
        durationMs: 60 * text.length,
      }),
    };
    const stream = fakeStream(() => {
      let finish!: () => void;
      const done = new Promise<void>((r) => (finish = r));
      clock.setTimeout(finish, 30); // plays out in 30 ms of the test's clock
      return { done, started: Promise.resolve(), interrupt: () => (finish(), 0) };
    });
    const brain = new GatedBrain();
    const parts = { brain, recognizer: {}, voice } as unknown as EdgeParts;
    const { loop, stored } = turnLoopOn(live, { parts, clock, stream });
    loop.start(); // greeting_hold_ms 0: the greeting is being made now
    await waitUntil(() => loop.state === 'thinking');
    const id = loop.typedTurn('Where do you live?');
    await waitUntil(() => brain.asked.length === 2); // the greeting was cut; the typed turn is being answered
    brain.open();
    await driveUntil(clock, () => ch.sent.some((m) => m.type === 'turn' && m.speech_id === id));
    await driveUntil(clock, () => loop.state === 'listening');
    // Only the user's turn: the greeting nobody heard is not a turn of empty text.
    expect(stored.filter((t) => t.user_text === '' && t.reply_text === '')).toEqual([]);
    expect(live.log.map((t) => t.user_text)).toEqual(['Where do you live?']);
    expect(live.log[0]!.seq).toBe(0);
    live.end('closed');
  });
});

describe('a spoken greeting in the transcript', () => {
  /** A voice timing each word at 300 ms; a stream that plays the greeting in `playMs` unless cut (then `heardMs` were heard, across its chunks). */
  function setup(opts: { playMs: number; heardMs: number }) {
    const clock = new ManualClock();
    const { live, ch } = greetingSession(clock);
    const voice = wordTimedVoice();
    let cut = false; // after a cut, replies play out at once
    // What was heard runs across the chunks on air in order (a reply's first words are a chunk of their own).
    let heardLeft = opts.heardMs;
    const stream = fakeStream((speech) => {
      let finish!: () => void;
      const done = new Promise<void>((r) => (finish = r));
      const t = clock.setTimeout(finish, cut ? 30 : opts.playMs);
      return {
        done,
        started: Promise.resolve(),
        interrupt: () => {
          cut = true;
          t.cancel();
          finish();
          const ms = Math.min(heardLeft, speech.durationMs);
          heardLeft -= ms;
          return ms;
        },
      };
    });
    const parts = { brain: new LocalBrain(), recognizer: {}, voice } as unknown as EdgeParts;
    const { loop, stored } = turnLoopOn(live, { parts, clock, stream });
    return { live, ch, loop, stored, clock };
  }

  it('played out: stored once, with its text', async () => {
    const { live, ch, loop, stored, clock } = setup({ playMs: 30, heardMs: 0 });
    loop.start();
    await driveUntil(clock, () => stored.length === 1 && loop.state === 'listening');
    const greeting = ch.sent.find((m) => m.type === 'turn' && m.greeting);
    expect(stored[0]).toMatchObject({
      seq: 0,
      user_text: '',
      reply_text: greeting.reply,
      outcome: 'spoken',
    });
    live.end('closed');
  });

  it('cut on air before its first word ended: the interruption is said, but no empty turn is stored', async () => {
    const { live, ch, loop, stored, clock } = setup({ playMs: 60_000, heardMs: 100 });
    loop.start();
    await waitUntil(() => loop.state === 'speaking');
    const id = loop.typedTurn('Where do you live?');
    await driveUntil(
      clock,
      () => stored.some((t) => t.speech_id === id) && loop.state === 'listening',
    );
    expect(ch.sent.find((m) => m.type === 'speech' && m.status === 'interrupted')).toMatchObject({
      said: '',
    });
    expect(live.log.map((t) => [t.seq, t.user_text])).toEqual([[0, 'Where do you live?']]);
    expect(stored.every((t) => t.user_text !== '')).toBe(true);
    live.end('closed');
  });

  it('cut on air after some words: stored as said, before the turn that cut it', async () => {
    const { live, loop, stored, clock } = setup({ playMs: 60_000, heardMs: 650 });
    loop.start();
    await waitUntil(() => loop.state === 'speaking');
    const id = loop.typedTurn('Where do you live?');
    await driveUntil(
      clock,
      () => stored.some((t) => t.speech_id === id) && loop.state === 'listening',
    );
    expect(live.log.map((t) => [t.seq, t.user_text, t.outcome])).toEqual([
      [0, '', 'interrupted'],
      [1, 'Where do you live?', 'spoken'],
    ]);
    expect(live.log[0]!.reply_text.split(' ')).toHaveLength(2);
    expect(stored.find((t) => t.seq === 0 && t.outcome === 'interrupted')?.reply_text).toBe(
      live.log[0]!.reply_text,
    );
    live.end('closed');
  });
});
