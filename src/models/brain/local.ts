/**
 * The default brain (issue 8, ARCHITECTURE property 5): deterministic and offline, and still
 * worth talking to. It answers from what the session froze:
 * - greetings, "how are you", thanks and goodbyes from its phrase table (phrases.ts);
 * - "what is your name" from the persona name (or a name the system prompt gives);
 * - "my name is Sam" / "what is my name" from the conversation history;
 * - "what can you do" with the topics its backstory covers;
 * - any other question by BM25 retrieval (retrieval.ts) over the backstory, memory block
 *   and prompt facts: the best sentence, plus a second one that scores nearly as well; a
 *   sentence it already said is passed over while another one matches;
 * - and, when nothing matches, an honest "I don't know that".
 * A request whose last message is not a user turn (the proactive greeting of
 * `greeting_enabled`) gets the opener. Phrases follow `language` for en, es, fr, de, it, pt;
 * other languages get English (retrieved sentences are quoted as written, never translated).
 * Same request, same reply: no clock, no randomness; `temperature` is ignored.
 * Usage counts tokens with `countTokens` (text.ts): prompt = every message plus the persona
 * backstory and memory passed beside them; completion = the reply.
 */
import type { Brain, BrainRequest, BrainUsage } from '../brain.js';
import { classify, userNameFrom } from './intents.js';
import { gatherKnowledge, type Knowledge } from './knowledge.js';
import { resolveLanguage } from './language.js';
import { PHRASES, type Phrases } from './phrases.js';
import { sentenceDeltas } from './sentence-chunker.js';
import { countTokens, truncateTokens } from './text.js';

/** A second retrieved sentence joins the first when it scores at least this share of it. */
const SECOND_SENTENCE_SHARE = 0.7;

export class LocalBrain implements Brain {
  readonly name = 'local';

  reply(req: BrainRequest): { deltas: AsyncIterable<string>; usage: Promise<BrainUsage> } {
    let text = composeReply(req);
    let finishReason: BrainUsage['finishReason'] = 'stop';
    if (req.maxTokens !== undefined && req.maxTokens > 0 && countTokens(text) > req.maxTokens) {
      text = truncateTokens(text, req.maxTokens);
      finishReason = 'length';
    }
    const promptTokens =
      req.messages.reduce((n, m) => n + countTokens(m.content), 0) +
      countTokens(req.persona?.backstory ?? '') +
      countTokens(req.persona?.memory ?? '');
    const usage = { promptTokens, completionTokens: countTokens(text), finishReason };
    const parts = sentenceDeltas(text);
    const signal = req.signal;
    async function* deltas() {
      for (const p of parts) {
        signal?.throwIfAborted();
        yield p;
      }
      signal?.throwIfAborted();
    }
    return { deltas: deltas(), usage: Promise.resolve(usage) };
  }
}

/** The whole reply as one string (pure; exported for tests and for non-streaming callers). */
export function composeReply(req: BrainRequest): string {
  const lang = resolveLanguage(req.language);
  const P = PHRASES[lang.code];
  const k = gatherKnowledge(req, lang.code);
  const last = req.messages[req.messages.length - 1];
  if (!last || last.role !== 'user') return P.greet(k.name);
  const userTurns = req.messages.filter((m) => m.role === 'user').map((m) => m.content);
  const said = req.messages.filter((m) => m.role === 'assistant').map((m) => m.content).join('\n');
  const intent = classify(last.content);
  switch (intent.kind) {
    case 'goodbye':
      return P.goodbye;
    case 'thanks':
      return P.thanks;
    case 'greeting':
      return P.greet(k.name);
    case 'how_are_you':
      return P.howAreYou;
    case 'ask_name':
      return P.name(k.name);
    case 'tell_user_name':
      return P.niceToMeet(intent.user);
    case 'ask_user_name':
      return P.userName(userNameFrom(userTurns.slice(0, -1)));
    case 'abilities':
      return P.abilities(topicList(k, lang.code));
    case 'memory':
      return k.memory.length ? `${P.memory(false)} ${k.memory.join(' ')}` : P.memory(true);
    case 'question':
      return answer(last.content, k, said, P, lang.code);
  }
}

function answer(question: string, k: Knowledge, said: string, P: Phrases, lang: string): string {
  const hits = k.index.search(question);
  if (hits.length === 0) return P.unknown(topicList(k, lang));
  // Prefer what has not been said yet, so asking again moves the conversation on.
  const fresh = hits.filter((h) => !said.includes(h.text));
  const pool = fresh.length ? fresh : hits;
  const best = pool[0];
  const second = pool[1];
  const picked = second && second.score >= SECOND_SENTENCE_SHARE * best.score ? [best, second] : [best];
  return picked.sort((a, b) => a.index - b.index).map((p) => p.text).join(' ');
}

function topicList(k: Knowledge, lang: string): string | null {
  const topics = k.index.topics(3);
  if (topics.length === 0) return null;
  return new Intl.ListFormat(lang, { type: 'disjunction' }).format(topics);
}
