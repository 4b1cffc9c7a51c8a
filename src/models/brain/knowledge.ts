/**
 * What the local brain knows, gathered from what the session froze (spec 4.5 context
 * fields): the persona name, backstory and memory block (`BrainRequest.persona`), and the
 * facts of the system prompt. Instructions in a prompt ("Be concise.", "Never ...") are not
 * facts and are left out; second-person facts ("You are a tour guide in Lisbon.") become
 * first person ("I am a tour guide in Lisbon."). A sentence that appears twice (a caller that
 * both passes the backstory and folds it into the prompt) is kept once.
 */
import type { BrainRequest } from '../brain.js';
import { PassageIndex, type Passage } from './retrieval.js';
import { splitSentences } from './text.js';

export interface Knowledge {
  name: string | null;
  index: PassageIndex;
  memory: string[];
}

const INSTRUCTION = /^(please\s+)?(be|do|don'?t|do not|never|always|answer|respond|reply|keep|use|speak|avoid|stay|act|talk|follow|remember|make|try|write|ask|help|limit|refuse|say|if|when|only|as an?|you (must|should|will|may|can|need)|you'?re not|you are not)\b/i;
const ARTICLE = /^(a|an|the|not|now|here|there|called|named|my|your)$/i;

export function personaName(req: BrainRequest, prompt: string): string | null {
  const given = req.persona?.name?.trim();
  if (given) return given;
  const m =
    /\b(?:[Yy]our name is|[Yy]ou are called|[Yy]ou are named|[Yy]ou're called|named|[Cc]all yourself)\s+(\p{Lu}[\p{L}'-]*)/u.exec(prompt) ??
    /\b(?:[Yy]ou are|[Yy]ou're|I am|I'm)\s+(\p{Lu}[\p{L}'-]*)/u.exec(prompt);
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
 * Indexes are kept for the last CACHE_SIZE distinct sessions: a session asks every turn with
 * the same frozen context, and indexing a 16 KB backstory costs more than answering.
 */
const CACHE_SIZE = 256;
const cache = new Map<string, Knowledge>();

export function gatherKnowledge(req: BrainRequest, lang: string): Knowledge {
  const prompt = req.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const key = JSON.stringify([lang, req.persona?.name ?? null, req.persona?.backstory ?? null, req.persona?.memory ?? null, prompt]);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // re-insert: most recently used last
    cache.set(key, hit);
    return hit;
  }
  const k = buildKnowledge(req, prompt, lang);
  cache.set(key, k);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return k;
}

function buildKnowledge(req: BrainRequest, prompt: string, lang: string): Knowledge {
  const seen = new Set<string>();
  const passages: Passage[] = [];
  const add = (text: string, source: Passage['source']) => {
    const key = text.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    passages.push({ text, source });
  };
  const memory = splitSentences(req.persona?.memory ?? '');
  for (const s of memory) add(s, 'memory');
  for (const s of splitSentences(req.persona?.backstory ?? '')) add(s, 'backstory');
  for (const s of splitSentences(prompt)) {
    if (INSTRUCTION.test(s) || s.endsWith('?')) continue;
    add(firstPerson(s), 'prompt');
  }
  return { name: personaName(req, prompt), index: new PassageIndex(passages, lang), memory };
}
