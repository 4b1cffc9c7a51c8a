/**
 * What the local brain knows, gathered from what the session froze (spec 4.5 context
 * fields): the persona name, backstory and memory block (`BrainRequest.persona`), and the
 * facts of the system prompt. Instructions in a prompt ("Be concise.", "Never ...") are not
 * facts and are left out; second-person facts ("You are a tour guide in Lisbon.") become
 * first person ("I am a tour guide in Lisbon."). A sentence that appears twice (a caller that
 * both passes the backstory and folds it into the prompt) is kept once.
 */
import { LRUCache } from 'lru-cache';
import type { BrainRequest } from '../brain.js';
import { PassageIndex, type Passage } from './retrieval.js';
import { backstoryFacts } from './backstory.js';
import { splitSentences } from './text.js';
import { mainLanguage, textLanguage } from './text-language.js';

export interface Knowledge {
  name: string | null;
  index: PassageIndex;
  memory: string[];
  /**
   * The language the backstory and prompt facts are mostly written in (text-language.ts),
   * or null when they do not tell: a reply in another language does not quote them.
   */
  lang: string | null;
}

const INSTRUCTION =
  /^(please\s+)?(be|do|greet|introduce|tell|give|mention|don'?t|do not|never|always|answer|respond|reply|keep|use|speak|avoid|stay|act|talk|follow|remember|make|try|write|ask|help|limit|refuse|say|if|when|only|as an?|you (must|should|will|may|can|need)|you'?re not|you are not)\b/i;
const ARTICLE = /^(a|an|the|not|now|here|there|called|named|my|your)$/i;

/** A persona key ("ava") is spoken as a name ("Ava"); a name with capitals is kept as given. */
export function displayName(name: string | null | undefined): string | null {
  const n = name?.trim();
  if (!n) return null;
  return n === n.toLowerCase() ? n.charAt(0).toUpperCase() + n.slice(1) : n;
}

export function personaName(req: BrainRequest, prompt: string): string | null {
  const given = displayName(req.persona?.name);
  if (given) return given;
  const m =
    /\b(?:[Yy]our name is|[Yy]ou are called|[Yy]ou are named|[Yy]ou're called|named|[Cc]all yourself)\s+(\p{Lu}[\p{L}'-]*)/u.exec(
      prompt,
    ) ?? /\b(?:[Yy]ou are|[Yy]ou're|I am|I'm)\s+(\p{Lu}[\p{L}'-]*)/u.exec(prompt);
  return m && !ARTICLE.test(m[1]) ? m[1] : null;
}

/** "You are a guide. Your city is Lisbon." -> "I am a guide. My city is Lisbon." */
export function firstPerson(sentence: string): string {
  if (!/^(you|your)\b/i.test(sentence)) return sentence;
  return sentence
    .replace(/^you are\b/i, 'I am')
    .replace(/^you're\b/i, "I'm")
    .replace(/^you\b/i, 'I')
    .replace(/^your\b/i, 'My')
    .replace(/\byourself\b/gi, 'myself')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b/gi, 'my');
}

/**
 * Indexes are kept for the last KNOWLEDGE_CACHE_SIZE distinct sessions: a session asks every turn with
 * the same frozen context, and indexing a 16 KB backstory costs more than answering.
 */
export const KNOWLEDGE_CACHE_SIZE = 256;
/** And at most this many characters of context (the key) across them: 256 sessions of 64 KB prompts do not stay. */
export const KNOWLEDGE_CACHE_CHARS = 4_000_000;
const cache = new LRUCache<string, Knowledge>({
  max: KNOWLEDGE_CACHE_SIZE,
  maxSize: KNOWLEDGE_CACHE_CHARS,
  sizeCalculation: (_k, key) => key.length + 1,
});

/** Indexes held now (a test checks the cache stays bounded). */
export const knowledgeCached = (): number => cache.size;

/**
 * The prompt is the system messages that open the conversation; a system message later on
 * (an instruction such as the edge's greeting cue) is not about the persona.
 */
export function leadingPrompt(req: BrainRequest): string {
  const first = req.messages.findIndex((m) => m.role !== 'system');
  return (first === -1 ? req.messages : req.messages.slice(0, first))
    .map((m) => m.content)
    .join('\n\n');
}

/** "Backstory: I grew up ..." -> "I grew up ...": a short label before a colon is not part of the fact. */
const LABEL = /^[\p{L}][\p{L} ]{0,38}:\s+/u;

export function gatherKnowledge(req: BrainRequest, lang: string): Knowledge {
  const prompt = leadingPrompt(req);
  const key = JSON.stringify([
    lang,
    req.persona?.name ?? null,
    req.persona?.backstory ?? null,
    req.persona?.memory ?? null,
    prompt,
  ]);
  const hit = cache.get(key);
  if (hit) return hit;
  const k = buildKnowledge(req, prompt, lang);
  cache.set(key, k);
  return k;
}

function buildKnowledge(req: BrainRequest, prompt: string, lang: string): Knowledge {
  const seen = new Set<string>();
  const passages: Passage[] = [];
  const add = (raw: string, source: Passage['source']) => {
    const text = raw.replace(LABEL, '');
    if (!text) return;
    const key = text.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    passages.push({ text, source, lang: textLanguage(text) });
  };
  const memory = splitSentences(req.persona?.memory ?? '');
  for (const s of memory) add(s, 'memory');
  // Clauses in the first person (backstory.ts): "Robin ... has a cat" -> "I have a cat."
  const given = displayName(req.persona?.name);
  const story = backstoryFacts(req.persona?.backstory ?? '', given);
  for (const s of story.facts) add(s, 'backstory');
  for (const sentence of splitSentences(prompt)) {
    const s = sentence.replace(LABEL, '');
    if (INSTRUCTION.test(s) || s.endsWith('?')) continue;
    add(firstPerson(s), 'prompt');
  }
  const about = passages.filter((p) => p.source !== 'memory').map((p) => p.text);
  return {
    name: personaName(req, prompt) ?? story.name,
    index: new PassageIndex(passages, lang),
    memory,
    lang: mainLanguage(about),
  };
}
