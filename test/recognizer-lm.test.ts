/**
 * The recogniser that expects the session's conversation (issue 30 items 1 and 2): the
 * session's ARPA language model (well formed, cached), the per-session model heard through
 * the real pocketsphinx (a word only in this persona's backstory is recognised; another
 * persona's is not), and the warm decoder (the same utterance heard first and third gives
 * the same words). Tests needing pocketsphinx (CI installs it) or espeak-ng skip without them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionClaims } from '../src/edge/box/session-token.js';
import { RecognitionStage, recognitionContext } from '../src/edge/session/recognition.js';
import { readSnapshot } from '../src/edge/session/snapshot.js';
import type {
  RecognitionContext,
  RecognitionStream,
  Recognizer,
} from '../src/models/recognizer.js';
import { PocketsphinxRecognizer, probePocketsphinx } from '../src/models/recognizer/index.js';
import { buildArpa } from '../src/models/recognizer/lm/arpa.js';
import {
  GENERAL_CORPUS,
  LM_CACHE_SIZE,
  lmCacheInfo,
  sessionArpa,
  writeSessionLm,
} from '../src/models/recognizer/lm/session-lm.js';
import { sentencesOf } from '../src/models/recognizer/lm/sentences.js';
import { readWav, resample } from '../src/models/voice/index.js';
import { concat, frames, silence, speak } from './helpers/speech.js';

const probe = probePocketsphinx();
const DICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';
const hasEspeak = spawnSync('espeak-ng', ['--version']).status === 0;
const hasSox = spawnSync('sox', ['--version']).status === 0;

/** The sections of an ARPA text: declared counts and the entries of each order. */
function parseArpa(text: string) {
  const counts = [...text.matchAll(/^ngram (\d)=(\d+)$/gm)].map((m) => Number(m[2]));
  const sections: string[][][] = [];
  let cur: string[][] | null = null;
  for (const line of text.split('\n')) {
    const head = /^\\(\d)-grams:$/.exec(line);
    if (head) sections.push((cur = []));
    else if (line === '' || line.startsWith('\\')) cur = null;
    else if (cur) cur.push(line.split('\t'));
  }
  return { counts, sections };
}

const ctx = (over: Partial<RecognitionContext>): RecognitionContext => ({
  persona: null,
  versionId: null,
  systemPrompt: null,
  backstory: null,
  tools: [],
  ...over,
});

describe('the session language model (ARPA)', () => {
  const words = new Set(['hello', 'there', 'how', 'are', 'you', 'i', 'am', 'fine']);

  it('is a well-formed trigram model: counts match, log10 probabilities <= 0, back-offs on histories', () => {
    const arpa = buildArpa([
      {
        sentences: [
          ['hello', 'there'],
          ['how', 'are', 'you'],
        ],
        weight: 1,
      },
      {
        sentences: [
          ['i', 'am', 'fine'],
          ['how', 'are', 'you'],
        ],
        weight: 3,
      },
    ]);
    expect(arpa.startsWith('\\data\\\n')).toBe(true);
    expect(arpa.trimEnd().endsWith('\\end\\')).toBe(true);
    const { counts, sections } = parseArpa(arpa);
    expect(counts).toEqual(sections.map((s) => s.length));
    expect(sections).toHaveLength(3);
    // Unigrams: every word, <s> and </s>; probabilities sum to 1 (10^log).
    expect(sections[0]!.map((e) => e[1]).sort()).toEqual(['</s>', '<s>', ...[...words].sort()]);
    const sum = sections[0]!
      .filter((e) => e[1] !== '<s>')
      .reduce((a, e) => a + 10 ** Number(e[0]), 0);
    expect(sum).toBeCloseTo(1, 4);
    for (const [order, entries] of sections.entries())
      for (const e of entries) {
        expect(Number(e[0])).toBeLessThanOrEqual(0);
        expect(e[1]!.split(' ')).toHaveLength(order + 1);
        if (e[2] !== undefined) expect(Number(e[2])).toBeLessThanOrEqual(0);
      }
    const grams = new Map(sections.flat().map((e) => [e[1]!, e]));
    // A history that has continuations carries a back-off weight; every prefix is there.
    expect(grams.get('how')![2]).toBeDefined();
    expect(grams.get('how are')![2]).toBeDefined();
    expect(grams.get('<s> how')![2]).toBeDefined();
    for (const e of sections[2]!)
      expect(grams.has(e[1]!.split(' ').slice(0, 2).join(' '))).toBe(true);
    // The weighted sentence is more probable after its history than the other.
    expect(Number(grams.get('<s> i')![0])).toBeGreaterThan(Number(grams.get('<s> hello')![0]));
  });

  it('keeps only dictionary words and never joins words across one it dropped', () => {
    expect(
      sentencesOf('Hello Zyxwv there! How are you? I’m fine, 42 am', new Set([...words, "i'm"])),
    ).toEqual([['hello'], ['there'], ['how', 'are', 'you'], ["i'm", 'fine'], ['am']]);
  });

  it.skipIf(!probe.modelDir)('is built once per context and kept in a bounded cache', async () => {
    const a = ctx({ persona: 'ava', backstory: 'I help with team invitations.' });
    const first = await sessionArpa(a, DICT);
    const size = lmCacheInfo().size;
    expect(await sessionArpa({ ...a }, DICT)).toBe(first); // the same model, and no second one in the cache
    expect(lmCacheInfo().size).toBe(size);
    const other = await sessionArpa({ ...a, tools: [{ name: 'draw_picture' }] }, DICT);
    expect(other).not.toBe(first);
    expect(other).toMatch(/\tdraw picture\t/);
    for (let i = 0; i < LM_CACHE_SIZE + 2; i++)
      await sessionArpa(
        ctx({
          backstory: `I am number ${'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen'.split(' ')[i]}.`,
        }),
        DICT,
      );
    expect(lmCacheInfo().size).toBe(LM_CACHE_SIZE);
    expect(lmCacheInfo(a).has).toBe(false); // the oldest went first
  });

  it.skipIf(!probe.modelDir)('is written to a private file that is gone once removed', async () => {
    const lm = await writeSessionLm(ctx({ backstory: 'I like tea.' }), DICT);
    const text = readFileSync(lm.path, 'utf8');
    expect(text).toMatch(/\ttea\t/);
    const { statSync } = await import('node:fs');
    expect(statSync(lm.path).mode & 0o077).toBe(0);
    await lm.remove();
    expect(() => statSync(lm.path)).toThrow();
  });
});

describe('the general corpus (fixtures/asr/conversation-en.txt)', () => {
  it("has a few thousand sentences and none of the edge-mic bench's questions", () => {
    const lines = readFileSync(GENERAL_CORPUS, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2000);
    const norm = (t: string) =>
      t
        .toLowerCase()
        .replace(/[^a-z' ]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const bench = readFileSync(new URL('../bench/edge-mic.bench.js', import.meta.url), 'utf8');
    const questions = [
      .../'([^']+)'/g[Symbol.matchAll](/export const QUESTIONS = \[([\s\S]*?)\];/.exec(bench)![1]!),
    ].map((m) => norm(m[1]!));
    expect(questions).toHaveLength(8);
    const corpus = new Set(lines.map(norm));
    expect(questions.filter((q) => corpus.has(q))).toEqual([]);
  });
});

describe('the recognition stage', () => {
  it("opens the session's stream with what the mint froze: persona, prompt, backstory, tools", () => {
    const snapshot = readSnapshot({
      sub: 'ses_1',
      session: {
        avatar: { kind: 'stock', persona: 'ava' },
        system_prompt: 'You are Ava.',
        backstory: 'I help with team invitations.',
        tools: { resolved: ['draw_picture'] },
      },
    } as unknown as SessionClaims);
    const asked: unknown[] = [];
    const recognizer: Recognizer = {
      name: 'fake',
      available: true,
      transcribe: async () => ({ text: '', recognised: false }),
      stream: (opts) => (asked.push(opts), null),
    };
    const stage = new RecognitionStage(
      recognizer,
      { partial: () => undefined, turn: () => undefined },
      recognitionContext(snapshot),
    );
    stage.speechStart(new Int16Array(1600));
    expect(asked).toEqual([
      {
        context: {
          persona: 'ava',
          versionId: null,
          systemPrompt: 'You are Ava.',
          backstory: 'I help with team invitations.',
          tools: [{ name: 'draw_picture' }],
        },
      },
    ]);
  });
});

describe('the session model is made when the session opens (issue 30: the first turn does not wait for it)', () => {
  const context = ctx({ persona: 'ava', backstory: 'I help with team invitations.' });

  it('the recognition stage asks the recogniser to prepare before any audio', () => {
    const calls: string[] = [];
    const recognizer: Recognizer = {
      name: 'fake',
      available: true,
      transcribe: async () => ({ text: '', recognised: false }),
      prepare: (c) => calls.push(`prepare ${c.backstory}`),
      stream: () => (calls.push('stream'), null),
    };
    const stage = new RecognitionStage(
      recognizer,
      { partial: () => undefined, turn: () => undefined },
      context,
    );
    expect(calls).toEqual(['prepare I help with team invitations.']);
    stage.speechStart(new Int16Array(1600));
    expect(calls).toEqual(['prepare I help with team invitations.', 'stream']);
  });

  it('pocketsphinx starts the build at prepare, and the stream takes that build (never a second one)', async () => {
    let builds = 0;
    let finish!: (arpa: string) => void;
    const slow = new Promise<string>((r) => (finish = r));
    const rec = new PocketsphinxRecognizer({
      binary: '/nonexistent/pocketsphinx_continuous',
      modelDir: '/nonexistent',
      arpa: () => (builds++, slow),
    });
    const stage = new RecognitionStage(
      rec,
      { partial: () => undefined, turn: () => undefined },
      context,
    );
    expect(builds).toBe(1); // under way before the session's first audio
    stage.speechStart(new Int16Array(1600)); // the build is still running
    expect(builds).toBe(1);
    finish('\\data\\\n');
    await slow;
    stage.control({ type: 'end', reason: 'closed' });
    expect(builds).toBe(1);
  });
});

describe("the tools' descriptions (issue 30: names and descriptions)", () => {
  it('go into the context the box reads them with, and the session model has their words', async () => {
    const snapshot = readSnapshot({
      sub: 'ses_2',
      session: { avatar: { kind: 'stock', persona: 'ava' }, tools: { resolved: ['tune', 'x'] } },
    } as unknown as SessionClaims);
    const prepared: RecognitionContext[] = [];
    const stage = new RecognitionStage(
      {
        name: 'fake',
        available: true,
        transcribe: async () => ({ text: '', recognised: false }),
        prepare: (c) => prepared.push(c),
      },
      { partial: () => undefined, turn: () => undefined },
    );
    const context = recognitionContext(snapshot, [
      { name: 'tune', description: 'Tunes the accordion of the user.' },
    ]);
    stage.setContext(context);
    expect(prepared.map((c) => c.tools)).toEqual([
      [{ name: 'tune', description: 'Tunes the accordion of the user.' }, { name: 'x' }],
    ]);
    if (!probe.modelDir) return;
    expect(await sessionArpa(context, DICT)).toMatch(/\tthe accordion\b/);
    expect(await sessionArpa(recognitionContext(snapshot), DICT)).not.toMatch(/\tthe accordion\b/);
  });
});

const opened: RecognitionStream[] = [];
afterEach(() => opened.splice(0).forEach((s) => s.close()));

/** Feeds an utterance the way the mic stage does: its first 500 ms at begin, then frame by frame. */
function utter(stream: RecognitionStream, audio: Int16Array) {
  const fs = frames(concat(silence(300), audio, silence(700)));
  stream.begin(concat(...fs.slice(0, 5)));
  for (const f of fs.slice(5))
    stream.push(
      f,
      f.some((x) => Math.abs(x) > 500),
    );
  return stream.end();
}

describe.skipIf(!probe.binary || !probe.modelDir)('pocketsphinx with the session model', () => {
  const rec = () => new PocketsphinxRecognizer({ binary: probe.binary! });
  const accordions = ctx({
    persona: 'one',
    backstory: 'I restore old accordions in my workshop. Accordions are my life.',
  });
  const ava = ctx({
    persona: 'ava',
    systemPrompt: 'You are Ava, a friendly support assistant.',
    backstory: 'I help with new accounts in apps, explain settings and team invitations.',
  });
  const saxophones = ctx({
    persona: 'two',
    backstory: 'I restore old saxophones in my workshop. Saxophones are my life.',
  });

  it("hears a word only this persona's backstory has, and not another persona's word", async () => {
    const audio = await speak('I restore old accordions.', 'slt');
    const own = rec().stream({ context: accordions })!;
    const other = rec().stream({ context: saxophones })!;
    opened.push(own, other);
    const [a, b] = await Promise.all([utter(own, audio), utter(other, audio)]);
    expect(a.text).toMatch(/accordions/);
    expect(a.text).not.toMatch(/saxophone/);
    // The other session's model was built from its own backstory: this word is not in it.
    expect(b.text).not.toMatch(/accordion/);
  });

  it('keeps reach for common words the session text and the corpus never have', async () => {
    const corpus = readFileSync(GENERAL_CORPUS, 'utf8').toLowerCase();
    const news = ['bread', 'kitchen', 'window'];
    for (const w of news) expect(corpus).not.toMatch(new RegExp(`\\b${w}\\b`));
    const stream = rec().stream({ context: ava })!;
    opened.push(stream);
    const heard = await utter(
      stream,
      await speak('The bread is in the kitchen by the window.', 'slt'),
    );
    for (const w of news) expect(heard.text.split(' ')).toContain(w);
  });

  it.skipIf(!hasEspeak || !hasSox)(
    'hears the first utterance of a session as it hears the same one later (warm decoder)',
    async () => {
      const question = await espeak('How do I send an invitation to a colleague');
      const stream = rec().stream({
        context: ctx({ persona: 'ava', backstory: 'I help with team invitations.' }),
      })!;
      opened.push(stream);
      const first = await utter(stream, question);
      await utter(stream, await espeak('Where can I change my password'));
      const third = await utter(stream, question);
      expect(third.text).toBe('how do i send an invitation to a colleague');
      expect(first.text).toBe(third.text);
    },
  );
});

/** `text` in espeak-ng's en-us voice, resampled to 16 kHz. */
async function espeak(text: string): Promise<Int16Array> {
  const dir = mkdtempSync(join(tmpdir(), 'avatar-espeak-'));
  try {
    spawnSync('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', join(dir, 'a.wav'), text]);
    const w = readWav(readFileSync(join(dir, 'a.wav')));
    return resample(w.samples, w.sampleRate, 16000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
