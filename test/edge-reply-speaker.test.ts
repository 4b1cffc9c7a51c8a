import { describe, expect, it } from 'vitest';
import { NEXT_CHUNK_MARGIN_MS, ReplySpeaker } from '../src/edge/session/reply-speaker.js';
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
    speaker.say('I live by the sea.');
    speaker.say('It is quiet there.');
    speaker.say('Do you like the sea?');
    await settle();
    // Nothing has finished playing, yet all three are queued, in order.
    expect(spoken.map((x) => x.speech.durationMs)).toEqual([18, 18, 20].map((n) => n * 60));
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
    expect(speaker.audioMs).toBe((18 + 18 + 20) * 60);
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
    speaker.say('I live by the sea.');
    speaker.say('It is quiet there.');
    speaker.say('Do you like the sea?');
    await settle();
    expect(said).toEqual(['I live by the sea.']);
    starts[0]!(); // its first fragment went out
    await settle();
    expect(said).toEqual(['I live by the sea.', 'It is quiet there.']);
    starts[1]!();
    await settle();
    expect(said).toHaveLength(3);
  });
});

describe('reply speaker: the first words first', () => {
  function recording() {
    const calls: { text: string; neededInMs: number | undefined }[] = [];
    const v: Voice = {
      ...voice,
      synthesize: async (text, o) => (
        calls.push({ text, neededInMs: o?.neededInMs }), voice.synthesize(text, o)
      ),
    };
    const { stream, spoken } = spokenStream();
    return { calls, speaker: new ReplySpeaker(v, stream, 'en', undefined, () => {}), spoken };
  }

  it.each([
    ['Sure, the red lamp is 3 steps from here.', ['Sure,', 'the red lamp is 3 steps from here.']],
    [
      'I live in a small flat by the sea near the old harbour.',
      ['I live in a small', 'flat by the sea near the old harbour.'],
    ],
    ['Well then, let me think about it.', ['Well then,', 'let me think about it.']],
    ['Hello there, friend.', ['Hello there,', 'friend.']],
    ['Yes.', ['Yes.']],
    ['It is quiet there, and warm.', ['It is quiet there,', 'and warm.']],
    ['The quiet sea is nice.', ['The quiet sea is nice.']],
  ])(
    'says %j as %j: a short first chunk due now, each later chunk due when the one before has played',
    async (sentence, chunks) => {
      const { calls, speaker, spoken } = recording();
      speaker.say(sentence);
      speaker.say('Do you like the sea?');
      for (let i = 0; i < 3; i++) {
        await settle();
        // Each chunk is made once the one before is on air (fakeStream: at once).
      }
      expect(calls.map((c) => c.text)).toEqual([...chunks, 'Do you like the sea?']);
      // The fake voice speaks 60 ms per character; a chunk is due NEXT_CHUNK_MARGIN_MS before
      // the one on air ends (at once when that one is shorter than the margin).
      const said = [...chunks, 'Do you like the sea?'];
      expect(calls.map((c) => c.neededInMs)).toEqual(
        said.map((_, i) =>
          i === 0 ? 0 : Math.max(0, said[i - 1]!.length * 60 - NEXT_CHUNK_MARGIN_MS),
        ),
      );
      expect(chunks.join(' ')).toBe(sentence);
      expect(spoken).toHaveLength(chunks.length + 1);
    },
  );

  it('a barge-in after the first chunk played says that chunk (what was heard), not the sentence', async () => {
    // The first chunk had played whole when the user barged in; nothing of the next was heard.
    const stream = fakeStream((speech) => ({
      done: new Promise<void>(() => {}),
      interrupt: () => (speech.durationMs === 'Sure,'.length * 60 ? speech.durationMs : 0),
    }));
    const speaker = new ReplySpeaker(voice, stream, 'en', undefined, () => {});
    speaker.say('Sure, the red lamp is 3 steps from here.');
    await settle();
    speaker.interrupt();
    expect(await speaker.said('Sure, the red lamp is 3 steps from here.')).toBe('Sure,');
  });
});
