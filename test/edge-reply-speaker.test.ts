import { describe, expect, it } from 'vitest';
import { ReplySpeaker } from '../src/edge/session/reply-speaker.js';
import type { Speech, Voice } from '../src/models/index.js';
import { fakeStream } from './helpers/turn-loop.js';
import { settle } from './helpers/wait.js';

/**
 * The edge's reply path queues every sentence on the media stream as soon as it is
 * synthesized, so the stream plays them back to back (no idle loop between sentences) and
 * the first sentence plays while later ones are still being made.
 */
const voice: Voice = {
  name: 'fake',
  voices: [],
  synthesize: async (text) => ({
    sampleRate: 16000,
    samples: new Int16Array(16 * text.length * 60),
    durationMs: text.length * 60,
  }),
};

function spokenStream() {
  const spoken: { speech: Speech; finish: () => void }[] = [];
  const stream = fakeStream((speech) => {
    let finish!: () => void;
    const done = new Promise<void>((r) => (finish = r));
    spoken.push({ speech, finish });
    return { done, interrupt: () => 0 };
  });
  return { stream, spoken };
}

describe('reply speaker', () => {
  it('queues each sentence on the stream while earlier ones are still playing', async () => {
    const { stream, spoken } = spokenStream();
    let first = 0;
    const speaker = new ReplySpeaker(voice, stream, 'en', undefined, () => first++);
    speaker.say('I live in a small flat by the sea.');
    speaker.say('It is quiet there.');
    speaker.say('Do you like the sea?');
    await settle();
    // Nothing has finished playing, yet all three are queued, in order.
    expect(spoken.map((x) => x.speech.durationMs)).toEqual([34, 18, 20].map((n) => n * 60));
    expect(first).toBe(1);
    let finished = false;
    void speaker.finished().then(() => (finished = true));
    spoken[0]!.finish();
    spoken[1]!.finish();
    await settle();
    expect(finished).toBe(false);
    spoken[2]!.finish();
    await settle();
    expect(finished).toBe(true);
    expect(speaker.audioMs).toBe((34 + 18 + 20) * 60);
  });

  it('makes each next sentence once the one before is on air, not while its first words are encoded', async () => {
    const said: string[] = [];
    const counting: Voice = {
      ...voice,
      synthesize: async (text, o) => (said.push(text), voice.synthesize(text, o)),
    };
    const starts: (() => void)[] = [];
    const s = fakeStream(() => {
      let started!: () => void;
      const p = new Promise<void>((r) => (started = r));
      starts.push(started);
      return { done: p, started: p, interrupt: () => 0 };
    });
    const speaker = new ReplySpeaker(counting, s, 'en', undefined, () => {});
    speaker.say('I live in a small flat by the sea.');
    speaker.say('It is quiet there.');
    speaker.say('Do you like the sea?');
    await settle();
    expect(said).toEqual(['I live in a small flat by the sea.']);
    starts[0]!(); // its first fragment went out
    await settle();
    expect(said).toEqual(['I live in a small flat by the sea.', 'It is quiet there.']);
    starts[1]!();
    await settle();
    expect(said).toHaveLength(3);
  });
});
