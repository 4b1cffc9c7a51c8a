import { describe, expect, it } from 'vitest';
import { LiveSession } from '../src/edge/session/live-session.js';
import { MicInput } from '../src/edge/session/mic-input.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import { testSnapshot, turnLoopOn } from './helpers/turn-loop.js';
import { waitUntil } from './helpers/wait.js';
import { ManualClock } from '../src/emulator/clock.js';
import { LocalBrain } from '../src/models/brain/local.js';
import type { Recognition, Recognizer, Vad } from '../src/models/index.js';

/**
 * docs/fidelity.md (Edge turns, session 2): a recognised turn the session ended before
 * answering still reaches the transcript. The user finished speaking, then the socket
 * closed while the recogniser was still working on the utterance: its words are stored,
 * unanswered.
 */
const snapshot = testSnapshot('sess-mic-end-00001');

/** Loud frames are speech. */
const vad: Vad = { isSpeech: (f) => f.some((v) => Math.abs(v) > 500), reset: () => undefined };

describe('a spoken turn still being recognised when the session ends', () => {
  it('is stored with its words and an empty reply', async () => {
    const clock = new ManualClock();
    const live = new LiveSession(snapshot, clock, { ended: () => undefined });
    let heard!: (r: Recognition) => void;
    const recognizer: Recognizer = {
      name: 'slow',
      available: true,
      transcribe: () => new Promise<Recognition>((r) => (heard = r)),
    };
    const parts = { brain: new LocalBrain(), recognizer } as unknown as EdgeParts;
    const { loop, stored } = turnLoopOn(live, { parts, clock });
    const mic = new MicInput(live, loop, vad, recognizer);
    for (let i = 0; i < 10; i++) mic.push(new Int16Array(1600).fill(3000));
    for (let i = 0; i < 10; i++) mic.push(new Int16Array(1600));
    expect(heard).toBeTypeOf('function'); // the utterance ended: the recogniser is at work
    live.end('closed');
    heard({ text: 'where do you live', recognised: true } as Recognition);
    await waitUntil(() => stored.length > 0, 10_000, 'the turn stored');
    expect(stored.map((t) => [t.user_text, t.reply_text, t.outcome])).toEqual([
      ['where do you live', '', 'unanswered'],
    ]);
  });
});
