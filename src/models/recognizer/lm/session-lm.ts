/**
 * The session's language model (issue 30 item 1; docs/turns.md "The session's language
 * model"): a trigram ARPA model of what this session can be about, mixed with general
 * conversational English, built when the session's recognition stream opens.
 *
 * Its text: the persona's or avatar's backstory and system prompt, the session's tool names
 * and descriptions, the questions users ask the local brain (one table per intent below) and
 * the brain's English phrase table, each counted `DOMAIN_WEIGHT` times, plus the general
 * corpus fixtures/asr/conversation-en.txt counted once. Words outside the pronouncing
 * dictionary are dropped (sentences.ts). The model's text is cached per context (persona,
 * version, prompt, backstory, tools), the `LM_CACHE_SIZE` most recent; each stream writes it
 * to a private temporary file (a 0700 directory, the file 0600) that it removes once
 * pocketsphinx has loaded it, or when it closes.
 */
import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Intent } from '../../brain/intents.js';
import { PHRASES } from '../../brain/phrases.js';
import type { RecognitionContext } from '../../recognizer.js';
import { buildArpa } from './arpa.js';
import { dictionaryWordsOf, sentencesOf } from './sentences.js';

/** How many times a sentence of the session's own text counts against one of the general corpus. */
export const DOMAIN_WEIGHT = 4;
/** Models kept (their ARPA text, tens of kB each). */
export const LM_CACHE_SIZE = 16;

export const GENERAL_CORPUS = fileURLToPath(
  new URL('../../../../fixtures/asr/conversation-en.txt', import.meta.url),
);
/**
 * The general English vocabulary kept within reach (scripts/make-asr-words.js): the 5,000
 * most probable words of the CMU model pocketsphinx ships (BSD-2-Clause), with their
 * unigram probabilities, `logprob<TAB>word` a line.
 */
export const GENERAL_WORDS = fileURLToPath(
  new URL('../../../../fixtures/asr/general-words-en.txt', import.meta.url),
);

/** `logprob<TAB>word` lines -> word -> probability (words outside `dict` left out). */
export function generalWordsOf(text: string, dict: ReadonlySet<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const [lp, w] = line.split('\t');
    if (w && dict.has(w) && Number.isFinite(Number(lp))) out.set(w, 10 ** Number(lp));
  }
  return out;
}

/** What users say to the local brain, by intent (brain/intents.ts): the questions it is built for. */
export const INTENT_QUESTIONS: Record<Intent['kind'], readonly string[]> = {
  goodbye: ['Goodbye.', 'Bye bye.', 'See you later.', 'Talk to you soon.', 'I have to go.'],
  thanks: ['Thank you.', 'Thanks a lot.', 'Thank you so much.', 'That was helpful.'],
  greeting: ['Hello.', 'Hi there.', 'Hey.', 'Good morning.', 'Good evening.'],
  how_are_you: [
    'How are you?',
    'How are you doing today?',
    "How's it going?",
    'How have you been?',
  ],
  ask_name: ['What is your name?', "What's your name?", 'What should I call you?'],
  about_self: ['Who are you?', 'Tell me about yourself.', 'What are you?', 'Introduce yourself.'],
  role: [
    'What do you do?',
    'What is your job?',
    'What do you do for a living?',
    'What is your role?',
  ],
  story: ['Tell me a story.', 'Tell me a story about yourself.', 'Do you have a story?'],
  tale: ['Tell me a story about a cat.', 'Can you tell me a story about a dog?'],
  joke: ['Tell me a joke.', 'Do you know a joke?', 'Say something funny.'],
  small_talk: ['Nice to meet you.', "I'm fine.", 'Okay.', 'Sorry.', 'You are great.', 'I am good.'],
  ask_user_name: ['What is my name?', 'Do you know my name?', 'Who am I?'],
  tell_user_name: ['My name is Alex.', 'I am Sam.', 'Call me Chris.'],
  abilities: ['What can you do?', 'What can you help me with?', 'How can you help me?'],
  memory: ['What do you remember about me?', 'Do you remember me?', 'What did I tell you?'],
  question: ['Can I ask you a question?', 'I have a question.', 'Can you explain that?'],
};

let dict: Promise<Set<string>> | null = null;
let general: Promise<string[][]> | null = null;
let vocabulary: Promise<Map<string, number>> | null = null;
let brainText: string | null = null;
const cache = new LRUCache<string, string>({ max: LM_CACHE_SIZE });
/** Builds under way, by key: a second caller (the stream after `prepare`) waits for the same one. */
const building = new Map<string, Promise<string>>();

/**
 * The dictionary pocketsphinx decodes with (its words are the only ones it can hear), and the
 * general corpus in its words: read once per process, without blocking the event loop.
 */
async function sources(
  dictPath: string,
): Promise<{ words: Set<string>; corpus: string[][]; reach: Map<string, number> }> {
  dict ??= readFile(dictPath, 'utf8').then(dictionaryWordsOf);
  dict.catch(() => (dict = null));
  const words = await dict;
  general ??= readFile(GENERAL_CORPUS, 'utf8').then((t) => sentencesOf(t, words));
  general.catch(() => (general = null));
  vocabulary ??= readFile(GENERAL_WORDS, 'utf8').then((t) => generalWordsOf(t, words));
  vocabulary.catch(() => (vocabulary = null));
  return { words, corpus: await general, reach: await vocabulary };
}

/** The English phrase table's lines, the lists and templates with their slots empty. */
function phraseText(): string {
  if (brainText !== null) return brainText;
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'function') {
      try {
        walk((v as (...a: unknown[]) => unknown)(null, null));
      } catch {
        /* a template that needs its slots */
      }
    } else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(PHRASES.en);
  return (brainText = out.join('\n'));
}

/** The cache key: the context's identity (persona/version) and every text that goes in. */
function keyOf(c: RecognitionContext): string {
  return createHash('sha256').update(JSON.stringify(c)).digest('hex');
}

/** The ARPA text of the session's model (cached). `dictPath`: pocketsphinx's dictionary. */
export async function sessionArpa(context: RecognitionContext, dictPath: string): Promise<string> {
  const key = keyOf(context);
  const hit = cache.get(key);
  if (hit !== undefined) return hit; // get() makes it the most recent
  const under = building.get(key);
  if (under) return under;
  const made = build(context, dictPath, key).finally(() => building.delete(key));
  building.set(key, made);
  return made;
}

async function build(context: RecognitionContext, dictPath: string, key: string): Promise<string> {
  const { words, corpus, reach } = await sources(dictPath);
  const domain = [
    context.systemPrompt ?? '',
    context.backstory ?? '',
    ...(context.tools ?? []).map((t) => `${t.name.replace(/[_-]+/g, ' ')}. ${t.description ?? ''}`),
    ...Object.values(INTENT_QUESTIONS).flat(),
    phraseText(),
  ].join('\n');
  const arpa = buildArpa(
    [
      { sentences: corpus, weight: 1 },
      { sentences: sentencesOf(domain, words), weight: DOMAIN_WEIGHT },
    ],
    3,
    reach,
  );
  cache.set(key, arpa);
  return arpa;
}

/** How many models the cache holds, and whether this context's is one (tests). */
export function lmCacheInfo(context?: RecognitionContext): { size: number; has: boolean } {
  return { size: cache.size, has: context ? cache.has(keyOf(context)) : false };
}

/** A private temporary copy of the session's model; `remove` deletes it (idempotent). */
export async function writeSessionLm(
  context: RecognitionContext,
  dictPath: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  return writeArpa(await sessionArpa(context, dictPath));
}

/** A private temporary file (0700 directory, 0600 file) holding `arpa`; `remove` deletes it. */
export async function writeArpa(
  arpa: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'avatar-lm-')); // 0700
  const path = join(dir, 'session.arpa'); // pocketsphinx reads a .arpa name as ARPA text
  await writeFile(path, arpa, { mode: 0o600 });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
