/**
 * Edge defects of issue 15 item 4, on the turn loop with a driven clock (no real-time waits):
 * a typed turn during a reply, a /chat-only session's idle end, a second `hello`, and a
 * release while a reply plays.
 */
import { describe, expect, it } from 'vitest';
import { LiveSession, UNATTENDED_IDLE_MS } from '../src/edge/session/live-session.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import { ManualClock } from '../src/emulator/clock.js';
import { LocalBrain } from '../src/models/brain/local.js';
import {
  fakeStream,
  recordingChannel,
  testSnapshot,
  turnLoopOn,
  wordTimedVoice,
} from './helpers/turn-loop.js';
import { settle, waitUntil } from './helpers/wait.js';

/**
 * A voice of 300 ms per word, and a stream on which a reply plays until the test ends it (or
 * it is cut after `heardMs`). `hangsOnCut`: a cut reply never reports done (a stream closed
 * under it, with the session, finishes nothing).
 */
function speakingSession(heardMs = 650, hangsOnCut = false) {
  const clock = new ManualClock();
  const live = new LiveSession(testSnapshot('sess-defects-000001', { render: true }), clock, {
    ended: () => undefined,
  });
  const ch = recordingChannel();
  live.attach(ch);
  const voice = wordTimedVoice();
  const playing: (() => void)[] = [];
  const stream = fakeStream((speech) => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    playing.push(finish);
    return {
      done,
      started: Promise.resolve(),
      interrupt: () => (hangsOnCut || finish(), Math.min(heardMs, speech.durationMs)),
    };
  });
  const parts = { brain: new LocalBrain(), recognizer: {}, voice } as unknown as EdgeParts;
  const { loop, stored } = turnLoopOn(live, { parts, clock, stream });
  return { clock, live, ch, loop, stored, playOut: () => playing.splice(0).forEach((f) => f()) };
}

describe('a typed turn posted while a reply plays', () => {
  it('barges in, and reaches the transcript even when the sockets close before it is answered', async () => {
    const { live, loop, stored } = speakingSession(650, true);
    const first = loop.userTurn('Where do you live?');
    await waitUntil(() => loop.state === 'speaking');
    const id = loop.typedTurn('What do you do?');
    live.end('closed');
    await waitUntil(() => stored.some((t) => t.speech_id === id));
    // The reply on air was cut by the typed turn (stored as said), not played on.
    expect(stored.filter((t) => t.speech_id === first).at(-1)).toMatchObject({
      outcome: 'interrupted',
    });
    expect(stored.find((t) => t.speech_id === id)).toMatchObject({
      user_text: 'What do you do?',
      outcome: 'unanswered',
    });
  });
});

describe('releasing a session while a reply plays', () => {
  it('keeps the stored reply whole: only barge-in rewrites it', async () => {
    const { live, ch, loop, stored } = speakingSession();
    const id = loop.userTurn('Where do you live?');
    await waitUntil(() => loop.state === 'speaking');
    const reply = ch.sent.find((m) => m.type === 'turn' && m.speech_id === id).reply;
    live.end('released');
    await waitUntil(() => loop.state === 'listening');
    await settle();
    const mine = stored.filter((t) => t.speech_id === id);
    expect(mine.at(-1)).toMatchObject({ reply_text: reply });
    expect(live.log[0]!.reply_text).toBe(reply);
  });
});

describe('a second hello with another lang', () => {
  it('does not turn the replies to typed English into that language', async () => {
    const { live, ch, loop, playOut } = speakingSession();
    loop.context('en');
    loop.context('fr');
    const id = loop.typedTurn('What do you do?');
    await waitUntil(() => ch.sent.some((m) => m.type === 'turn' && m.speech_id === id));
    expect(ch.sent.find((m) => m.type === 'turn' && m.speech_id === id).language).toMatch(/^en/);
    playOut();
    live.end('closed');
  });
});

describe('a session used only through /chat', () => {
  it('ends idle once its replies are done, freeing its seat before the cap', async () => {
    const clock = new ManualClock();
    const ended: string[] = [];
    const live = new LiveSession(testSnapshot('sess-defects-000002', { render: false }), clock, {
      ended: (_s, r) => ended.push(r),
    });
    const parts = { brain: new LocalBrain(), recognizer: {} } as unknown as EdgeParts;
    const { loop } = turnLoopOn(live, { parts, clock });
    loop.typedTurn('Where do you live?');
    await waitUntil(() => live.log.length === 1 && loop.state === 'listening');
    clock.advance(UNATTENDED_IDLE_MS + 1);
    expect(ended).toEqual(['idle']);
  });
});
