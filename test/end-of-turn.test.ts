/**
 * Semantic end of turn (issue 30 item 3; docs/turns.md "End of turn"): the words a
 * streaming recogniser heard after the user paused decide how long the pause must last.
 * A complete question ends the turn after 300 ms; "... and" or "um" holds it up to 1200 ms, so
 * a 500 ms pause to think is not a turn; without words (no streaming recogniser) the plain
 * 700 ms hangover ends it, as before. Mic frames are the clock (each one is 100 ms of the
 * user's audio): no sleeps, no wall-clock asserts.
 */
import { describe, expect, it } from 'vitest';
import { LiveSession } from '../src/edge/session/live-session.js';
import { MicInput } from '../src/edge/session/mic-input.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import { completeness } from '../src/edge/turns/index.js';
import { ManualClock } from '../src/emulator/clock.js';
import { LocalBrain } from '../src/models/brain/local.js';
import type { Recognizer, Vad } from '../src/models/index.js';
import type { RecognitionStream } from '../src/models/recognizer.js';
import { recordingChannel, testSnapshot, turnLoopOn } from './helpers/turn-loop.js';
import { waitUntil } from './helpers/wait.js';

describe('whether the words so far end a turn', () => {
  it('calls questions and sentences complete, and conjunctions, fillers and dangling words incomplete', () => {
    for (const text of [
      'what is your name',
      'where do you live',
      'what do you do',
      'what can you help me with',
      'can you invite a new member to my team',
      'my name is sam',
      'thank you very much',
      'Where did you grow up?',
      'yes',
      'hello',
    ])
      expect([text, completeness(text)]).toEqual([text, 'complete']);
    for (const text of [
      'i want to invite my friend and',
      'i was late because',
      'it was raining so',
      'i like tea but',
      'tea or',
      'i want um',
      'uh',
      'can you tell me about the',
      'i would like to',
      'what is',
      'where do',
      'can',
    ])
      expect([text, completeness(text)]).toEqual([text, 'incomplete']);
    expect(completeness('')).toBe('unknown');
    expect(completeness('tell')).toBe('unknown');
  });

  it('does not call half a question complete: a dangling preposition, "can you", "my name is", "i want", "do you know"', () => {
    for (const text of [
      'can you',
      'how do i',
      'my name is',
      'tell me about',
      'i would like',
      'where do you',
      'i want',
      'do you know',
      'can you tell me',
      'could you show me',
      'would you',
      'could we',
      'will they',
      'it was',
      'they are',
      'i need',
      'i was wondering',
      'i want to talk with',
      'i am calling from',
      'a question for',
    ])
      expect([text, completeness(text)]).toEqual([text, 'incomplete']);
    for (const text of [
      'yes',
      'thanks',
      'how are you',
      'what time is it',
      'can you help me',
      'what are you talking about',
      'where do you come from',
      'what do you think',
      'yes it is',
    ])
      expect([text, completeness(text)]).toEqual([text, 'complete']);
  });

  it('knows the other languages the brain speaks by their conjunctions and fillers; Chinese waits the plain hangover', () => {
    expect(completeness('quiero invitar a mi amigo y', 'es')).toBe('incomplete');
    expect(completeness('¿cómo te llamas?', 'es-MX')).toBe('complete');
    expect(completeness('je voudrais inviter euh', 'fr')).toBe('incomplete');
    expect(completeness('comment tu t’appelles', 'fr')).toBe('complete');
    expect(completeness('ich möchte meinen Freund und', 'de')).toBe('incomplete');
    expect(completeness('wo wohnst du', 'de')).toBe('complete');
    expect(completeness('voglio invitare mio fratello perché', 'it')).toBe('incomplete');
    expect(completeness('come ti chiami', 'it')).toBe('complete');
    expect(completeness('eu quero convidar o meu amigo mas', 'pt-BR')).toBe('incomplete');
    expect(completeness('onde você mora', 'pt')).toBe('complete');
    expect(completeness('你叫什么名字', 'zh-CN')).toBe('unknown');
    // A dangling preposition goes on in every language with lists.
    expect(completeness('quiero hablar sobre', 'es')).toBe('incomplete');
    expect(completeness('je voudrais parler sur', 'fr')).toBe('incomplete');
    expect(completeness('ich komme aus', 'de')).toBe('incomplete');
    expect(completeness('vorrei parlare tra', 'it')).toBe('incomplete');
    expect(completeness('eu quero falar sobre', 'pt')).toBe('incomplete');
  });
});

/** Loud frames are speech. */
const vad: Vad = { isSpeech: (f) => f.some((v) => Math.abs(v) > 500), reset: () => undefined };
const loud = () => new Int16Array(1600).fill(3000);
const quiet = () => new Int16Array(1600);

/**
 * A session's mic stage over a fake streaming recogniser: `partial(text)` is the stream
 * printing the utterance's words so far; `ended()` counts the utterances the mic ended;
 * the stream's final text is its last partial; a batch recogniser hears "heard in batch".
 */
function micSession(opts: { streaming?: boolean; lang?: string } = {}) {
  let last = '';
  let ends = 0;
  const stream: RecognitionStream = {
    onPartial: null,
    begin: () => undefined,
    push: () => undefined,
    end: async () => ({ text: last, recognised: true }),
    close: () => undefined,
  };
  const batch: Recognizer = {
    name: 'batch',
    available: true,
    transcribe: async () => ({ text: 'heard in batch', recognised: true }),
  };
  const recognizer: Recognizer =
    opts.streaming === false ? batch : { ...batch, name: 'pocketsphinx', stream: () => stream };
  const clock = new ManualClock();
  const live = new LiveSession(testSnapshot('sess-eot-00000001'), clock, {
    ended: () => undefined,
  });
  const ch = recordingChannel();
  live.attach(ch);
  const parts = { brain: new LocalBrain(), recognizer } as unknown as EdgeParts;
  const { loop } = turnLoopOn(live, { parts, clock });
  const mic = new MicInput(live, loop, vad, recognizer);
  if (opts.lang) mic.setLang(opts.lang);
  // The mic stage hands each utterance it ended to recognition: count them there.
  const utteranceEnd = mic.recognition.utteranceEnd.bind(mic.recognition);
  mic.recognition.utteranceEnd = (samples) => (ends++, utteranceEnd(samples));
  /** `n` frames of speech. */
  const say = (n: number) => {
    for (let i = 0; i < n; i++) mic.push(loud());
  };
  /** Up to `ms` of silence, the stream printing `heard` after `afterMs` of it; the ms of silence that ended the utterance, or null. */
  const pause = (ms: number, heard?: { afterMs: number; text: string }[]) => {
    const before = ends;
    for (let t = 100; t <= ms; t += 100) {
      for (const h of heard ?? []) if (h.afterMs === t - 100) partial(h.text);
      mic.push(quiet());
      if (ends > before) return t;
    }
    return null;
  };
  const partial = (text: string) => {
    last = text;
    stream.onPartial?.(text);
  };
  const turns = () => ch.sent.filter((m) => m.type === 'turn');
  return { live, mic, say, pause, partial, turns, ends: () => ends };
}

describe('the end-of-turn stage', () => {
  it('ends a complete question 300 ms after the user stops, once the words are heard', async () => {
    const s = micSession();
    s.say(8);
    // pocketsphinx prints the words once it heard 200 ms of pause.
    expect(s.pause(1500, [{ afterMs: 200, text: 'what is your name' }])).toBe(300);
    await waitUntil(() => s.turns().length === 1);
    expect(s.turns()[0]).toMatchObject({ text: 'what is your name' });
    s.live.end('closed');
  });

  it('does not end the turn at a 500 ms pause after "and", and ends it once after the rest', async () => {
    const s = micSession();
    s.say(12);
    expect(s.pause(500, [{ afterMs: 200, text: 'i want to invite my friend and' }])).toBeNull();
    // Even a pause as long as the old hangover is not the end after "and".
    expect(s.pause(300)).toBeNull();
    s.say(6);
    const full = 'i want to invite my friend and my sister to the team';
    expect(s.pause(1500, [{ afterMs: 200, text: full }])).toBe(300);
    await waitUntil(() => s.turns().length === 1);
    expect(s.ends()).toBe(1);
    expect(s.turns().map((t) => t.text)).toEqual([full]);
    s.live.end('closed');
  });

  for (const [half, rest] of [
    ['can you', 'can you invite my sister to the team'],
    ['my name is', 'my name is sam'],
    ['tell me about', 'tell me about the pricing plans'],
  ] as const)
    it(`does not end the turn at a 500 ms pause after "${half}", and ends it once after the rest`, async () => {
      const s = micSession();
      s.say(8);
      expect(s.pause(500, [{ afterMs: 200, text: half }])).toBeNull();
      s.say(6);
      expect(s.pause(1500, [{ afterMs: 200, text: rest }])).toBe(300);
      await waitUntil(() => s.turns().length === 1);
      expect(s.ends()).toBe(1);
      expect(s.turns().map((t) => t.text)).toEqual([rest]);
      s.live.end('closed');
    });

  it('waits after a filler, up to the longer bound', () => {
    const s = micSession();
    s.say(8);
    expect(s.pause(3000, [{ afterMs: 200, text: 'i would like um' }])).toBe(1200);
    s.live.end('closed');
  });

  it('still ends the turn at the upper bound when the words never settle', () => {
    const s = micSession();
    s.say(8);
    const growing = Array.from({ length: 20 }, (_, i) => ({
      afterMs: 200 + i * 100,
      text: `so ${'uh '.repeat(i)}and`,
    }));
    expect(s.pause(3000, growing)).toBe(1200);
    s.live.end('closed');
  });

  it('ignores words heard before the user spoke again: they may miss the end', () => {
    const s = micSession();
    s.say(4);
    s.partial('what is your name'); // a partial while the user still speaks
    s.say(4);
    expect(s.pause(1500)).toBe(700);
    s.live.end('closed');
  });

  it('waits the plain 700 ms hangover without a streaming recogniser, as before', async () => {
    const s = micSession({ streaming: false });
    s.say(8);
    expect(s.pause(1500)).toBe(700);
    await waitUntil(() => s.turns().length === 1);
    expect(s.turns()[0]).toMatchObject({ text: 'heard in batch' });
    s.live.end('closed');
  });

  it('waits the plain hangover for a language without word lists (Chinese)', () => {
    const s = micSession({ lang: 'zh-CN' });
    s.say(8);
    expect(s.pause(1500, [{ afterMs: 200, text: '你叫什么名字' }])).toBe(700);
    s.live.end('closed');
  });
});
