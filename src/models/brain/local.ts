/**
 * The default brain (issue 8, ARCHITECTURE property 5; issue 29 item 2): deterministic and
 * offline, and still worth talking to. It answers from what the session froze:
 * - greetings, "how are you", thanks, goodbyes and small talk from its phrase table
 *   (phrases.ts), as such: never the persona's introduction;
 * - "what is your name" from the persona name (or a name the system prompt or a third-person
 *   backstory gives), and "who are you" / "tell me about yourself" with the name and the
 *   backstory's first fact;
 * - "my name is Sam" / "what is my name" from the conversation history;
 * - "what can you do" with the topics its backstory covers; "what do you do" with the
 *   persona's fact about its work; "tell me your story" with the backstory, in order;
 *   "tell me a story (about X)" with a phrase-table story set in its work; "tell me a joke"
 *   with a phrase-table joke and its own topics;
 * - several intents in one turn ("what is your name and what do you do?"), each answered in
 *   the order asked (intents.ts classifyAll);
 * - any other question by BM25 retrieval (retrieval.ts) over the backstory's facts (one
 *   clause each, in the first person: backstory.ts), memory block and prompt facts: the best
 *   fact, plus a second one that scores nearly as well; a fact it already said is passed over
 *   while another one answers nearly as well;
 * - a tool that fires on the turn (the box's rule, tool-verdict.ts, over `req.tools`): its
 *   `cover_line` or the phrase table's acknowledgement, never a refusal;
 * - and, when nothing matches, an honest "I don't know that", with what it can talk about.
 * A line said before is said again as such ("As I said, ..."); courtesy lines, stories,
 * jokes and "I don't know" move on to the next wording. The variation comes from the
 * conversation so far (how many times each was said or asked), never a clock or dice.
 * A request whose last message is not a user turn (the proactive greeting of
 * `greeting_enabled`) gets the opener; a user's greeting gets a shorter one back (not the
 * opener word for word), naming the persona only if it has not said who it is yet.
 * Phrases follow `language` for en, es, fr, de, it, pt, zh; other languages get English, and
 * usage.language says which one the reply is in. Retrieved sentences are quoted as written,
 * never translated, and only in a reply of their own language: one reply never mixes two
 * languages; what is only known in another language is said to be (`onlyIn`).
 * The name is said once: "who are you" skips the name line when the backstory sentence
 * already names the persona.
 * Same conversation, same reply: no clock, no randomness; `temperature` is ignored.
 * Usage counts tokens with `countTokens` (text.ts): prompt = every message plus the persona
 * backstory and memory passed beside them; completion = the reply.
 */
import type { Brain, BrainRequest, BrainUsage } from '../brain.js';
import { classify, classifyAll, userNameFrom, type Intent } from './intents.js';
import { deterministicVerdict } from './tool-verdict.js';
import { gatherKnowledge, type Knowledge } from './knowledge.js';
import { resolveLanguage, type PhraseLanguage } from './language.js';
import { textLanguage } from './text-language.js';
import { PHRASES, type Phrases } from './phrases.js';
import { sentenceDeltas } from './sentence-chunker.js';
import { countTokens, truncateTokens } from './text.js';
import type { Passage, Scored } from './retrieval.js';

/** A second retrieved sentence joins the first when it scores at least this share of it. */
const SECOND_SENTENCE_SHARE = 0.7;
/** Asked again, the answer moves on to a sentence not said yet if it scores at least this share of the best. */
const MOVE_ON_SHARE = 0.5;

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
    const usage = {
      promptTokens,
      completionTokens: countTokens(text),
      finishReason,
      language: replyLanguageTag(req.language),
    };
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

/** The tag of the language the reply is written in: the one asked for when the phrase table has it, else `en`. */
export function replyLanguageTag(language: string | null | undefined): string {
  const lang = resolveLanguage(language);
  return lang.supported && lang.requested !== null ? language!.trim() : 'en';
}

/** The whole reply as one string (pure; exported for tests and for non-streaming callers). */
export function composeReply(req: BrainRequest): string {
  const lang = resolveLanguage(req.language);
  const P = PHRASES[lang.code];
  const k = gatherKnowledge(req, lang.code);
  // Said in this reply's language? A sentence whose language does not tell is.
  // (A backstory written in this language is all quoted: one short sentence can read as
  // another language to the detector, "velejo no rio Tejo" as Spanish.)
  const mine = (p: Passage | { lang?: string | null; source?: string }) =>
    !p.lang ||
    p.lang === lang.code ||
    (k.lang === lang.code && 'source' in p && p.source === 'backstory');
  // The language what is known about the persona is written in, when it is not the reply's.
  const elsewhere = k.lang && k.lang !== lang.code ? k.lang : null;
  const onlyIn = (code: string) =>
    P.onlyIn(new Intl.DisplayNames([lang.code], { type: 'language' }).of(code) ?? code);
  // Sentences are joined by a space, except in Chinese, which puts none after 。
  const joined = (parts: (string | null | undefined)[]) =>
    parts.filter(Boolean).join(lang.code === 'zh' ? '' : ' ');
  // The turn: the last message when it is the user's, or the user's right before the notes a
  // pre-speech tool gate added after it ("[tool x result: ...]"); else this is the greeting.
  let end = req.messages.length - 1;
  while (end > 0 && req.messages[end]!.role === 'system') end--;
  const notes = req.messages.slice(end + 1).map((m) => m.content);
  const last = req.messages[end];
  if (!last || last.role !== 'user' || (notes.length > 0 && !notes.some(isToolNote)))
    return P.greet(k.name);
  const userTurns = req.messages.filter((m) => m.role === 'user').map((m) => m.content);
  const replies = req.messages.filter((m) => m.role === 'assistant').map((m) => m.content);
  const said = replies.join('\n');
  // The next of `lines`: how many earlier replies said one of them picks it (variation from
  // the conversation so far, never from a clock or dice).
  const next = (lines: readonly string[]) =>
    lines[replies.filter((r) => lines.some((l) => r.includes(l))).length % lines.length]!;
  // How many earlier user turns asked for this kind (the stories and jokes move on).
  const asked = (kind: Intent['kind']) =>
    userTurns.slice(0, -1).filter((u) => classify(u).kind === kind).length;
  const intents = classifyAll(last.content);
  // A tool fires on this turn (the box's deterministic rule): the reply says so, never "I don't know".
  const tool = req.tools?.length ? firingTool(last.content, req.tools) : null;
  // Its answer already in hand (the gate leads the reply with it): nothing to announce.
  // (A tool's note after the turn: a fast tool answered it before this reply, with or without `tools` here.)
  const inHand = notes.some(isToolNote);
  const parts: string[] = [];
  /** Lines that are said again on purpose (courtesy, stories, the tool line): never "As I said". */
  const fixed = new Set<string>();
  const keep = (line: string) => {
    fixed.add(line);
    return line;
  };
  const one = (intent: Intent): string | null => {
    switch (intent.kind) {
      case 'goodbye':
        return keep(next(P.goodbye));
      case 'thanks':
        return keep(next(P.thanks));
      case 'greeting': {
        // The persona names itself only if nothing it said so far did.
        const named = k.name && !namesIn(said, k.name) ? k.name : null;
        return keep(named ? P.greetBack(named) : next(P.greetAgain));
      }
      case 'how_are_you':
        return keep(next(P.howAreYou));
      case 'small_talk':
        return keep(next(P.smallTalk[intent.about]));
      case 'joke': {
        const joke = P.jokes[asked('joke') % P.jokes.length]!;
        const topics = elsewhere ? null : topicList(k, lang.code);
        return keep(joined([joke, topics ? P.jokeTopics(topics) : null]));
      }
      case 'tale': {
        // The persona's own work (else its first fact) sets the scene; the subject is the user's.
        const hit = roleHit(k, lang.code, mine);
        const first = k.index.first();
        const setting = hit ?? (first && mine(first) ? first : null);
        const tell = P.tale[asked('tale') % P.tale.length]!;
        return keep(
          tell(intent.subject, setting?.text ?? null).replace(
            /\s+/g,
            lang.code === 'zh' ? '' : ' ',
          ),
        );
      }
      case 'ask_name':
        return P.name(k.name);
      case 'about_self': {
        // The name, then the first thing the backstory tells; the name once, in one language.
        const first = k.index.first();
        if (first && !mine(first))
          return joined([k.name ? P.name(k.name) : null, onlyIn(first.lang!)]);
        const nameLine = k.name && !(first && namesIn(first.text, k.name)) ? P.name(k.name) : null;
        return joined([nameLine, first?.text]) || P.name(null);
      }
      case 'role': {
        // What the persona does: the backstory sentence about its work, else its first one.
        const hit = roleHit(k, lang.code, mine);
        const first = k.index.first();
        const line = hit ?? (first && mine(first) ? first : null);
        if (line) return line.text;
        return elsewhere ? onlyIn(elsewhere) : P.role(k.name);
      }
      case 'story': {
        // The backstory told in order: the persona's story, as much as it knows.
        const own = k.index.all().filter((p) => p.source !== 'memory');
        const here = own.filter(mine);
        if (own.length > 0 && here.length === 0) return onlyIn(own[0]!.lang!);
        return here.length ? joined(here.slice(0, STORY_SENTENCES).map((p) => p.text)) : P.noStory;
      }
      case 'tell_user_name':
        return P.niceToMeet(intent.user);
      case 'ask_user_name':
        return P.userName(userNameFrom(userTurns.slice(0, -1)));
      case 'abilities':
        return elsewhere ? onlyIn(elsewhere) : P.abilities(topicList(k, lang.code));
      case 'memory': {
        if (k.memory.length === 0) return P.memory(true);
        const own = k.memory.map((text) => ({ text, lang: textLanguage(text) }));
        const here = own.filter(mine);
        if (here.length === 0) return onlyIn(own[0].lang!);
        return joined([P.memory(false), ...here.map((p) => p.text)]);
      }
      case 'question': {
        // The turn asks for the tool: its line answers it (below).
        if (tool || inHand) return null;
        const q = intent.text ?? last.content;
        const hits = k.index.search(q);
        const here = hits.filter(mine);
        // Beside other intents, a clause that finds nothing is left out (no "I don't know" in the middle).
        if (intents.length > 1 && here.length === 0) return null;
        if (hits.length > 0 && here.length === 0) return onlyIn(hits[0].lang!);
        if (hits.length === 0 && elsewhere) return joined([P.unknown(null), onlyIn(elsewhere)]);
        // What this reply already says counts as said: the answer moves on from it.
        return answer(here, k, [said, ...parts].join('\n'), P, lang.code, joined, unknowns);
      }
    }
  };
  // How many times this conversation said it does not know (the wording moves on).
  const unknowns = replies.filter((r) =>
    [0, 1, 2].some((i) => r.includes(P.unknown(null, i).replace(/[.。]$/u, ''))),
  ).length;
  // Each intent's answer in the order asked; a sentence already given is not said twice.
  for (const intent of intents) {
    let a = one(intent);
    for (const p of parts) if (a && a.includes(p)) a = a.replace(p, '').trim();
    if (a && !parts.some((p) => p.includes(a!))) parts.push(a);
  }
  if (tool && !inHand) parts.push(keep(toolLine(tool, P, lang.code)));
  if (parts.length === 0)
    return inHand ? P.anythingElse : P.unknown(topicList(k, lang.code), unknowns);
  // A line said before is said again as such ("As I said, ..."), never word for word.
  // (Said as an answer: a reply that was it, began or ended with it; not a fact a story told.)
  const answered = (r: string, p: string) =>
    r.startsWith(p) || r.endsWith(p) || r.endsWith(midSentence(p, k.name));
  const again = parts.findIndex((p) => !fixed.has(p) && replies.some((r) => answered(r, p)));
  if (again >= 0) {
    const p = parts[again]!;
    const times = replies.filter((r) => answered(r, p)).length;
    const line = P.asISaidLowers ? midSentence(p, k.name) : p;
    parts[again] = P.asISaid[(times - 1) % P.asISaid.length]!(line);
  }
  return joined(parts);
}

/** A note the tool stage adds to the conversation (spec 6.2 step 4). */
const isToolNote = (text: string) => /^\[tool \S+ (result|failed)/.test(text);

type RequestTool = NonNullable<BrainRequest['tools']>[number];

/** The tool the box's rule fires for this turn, or null (tool-verdict.ts: the one rule). */
function firingTool(turn: string, tools: readonly RequestTool[]): RequestTool | null {
  const v = deterministicVerdict(turn, tools);
  return v ? (tools.find((t) => t.name === v.tool) ?? null) : null;
}

/** The tool's own `cover_line` when it is in the reply's language, else the phrase table's. */
function toolLine(tool: RequestTool, P: Phrases, lang: string): string {
  const cover = tool.cover_line?.trim();
  if (cover) {
    const written = textLanguage(cover);
    if (written === lang || (written === null && lang === 'en')) return cover;
  }
  return P.toolAck;
}

/** A sentence continued after "As I said, ": its first letter lower case, unless it is "I" or a name. */
function midSentence(line: string, name: string | null): string {
  const first = /^[\p{L}'’]+/u.exec(line)?.[0] ?? '';
  if (!first || /^I(['’].*)?$/.test(first) || first === name) return line;
  // A word written with a capital inside the reply too is a name ("Lisbon"), kept as is.
  if (new RegExp(`[^.!?]\\s${first}\\b`, 'u').test(line.slice(first.length))) return line;
  return line.charAt(0).toLowerCase() + line.slice(1);
}

/** Backstory sentences told for "tell me a story". */
const STORY_SENTENCES = 6;

/** Words that find the sentence about what the persona does, per phrase language. */
const ROLE_QUERY: Record<PhraseLanguage, string> = {
  en: 'work job career profession role',
  es: 'trabajo trabajar trabaja profesión oficio',
  fr: 'travail travaille métier profession',
  de: 'arbeite arbeit beruf job arbeitet',
  it: 'lavoro lavora professione mestiere',
  pt: 'trabalho trabalha profissão emprego',
  zh: '工作 职业 导游 做',
};

/**
 * The persona's sentence about its work: the work words themselves (not their topic group,
 * where "living" is a job), in a sentence of the persona's own (not "She lives in Porto.",
 * which a backstory says of somebody else).
 */
function roleHit(k: Knowledge, lang: PhraseLanguage, mine: (p: Passage) => boolean): Scored | null {
  return (
    k.index
      .search(ROLE_QUERY[lang], false)
      .find((h) => h.source !== 'memory' && mine(h) && !OTHERS.test(h.text)) ?? null
  );
}
const OTHERS = /^(he|she|they|his|her|their)\b/i;

/** `text` names the persona: its name as a whole word (any case). */
function namesIn(text: string, name: string): boolean {
  return new RegExp(`(^|[^\\p{L}])${escape(name)}($|[^\\p{L}])`, 'iu').test(text);
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function answer(
  hits: Scored[],
  k: Knowledge,
  said: string,
  P: Phrases,
  lang: string,
  joined: (parts: string[]) => string,
  unknowns: number,
): string {
  if (hits.length === 0) return P.unknown(topicList(k, lang), unknowns);
  // Prefer what has not been said yet, so asking again moves the conversation on, as long as
  // it answers nearly as well; else the best answer again (said as such by composeReply).
  const fresh = hits.filter(
    (h) => !said.includes(h.text) && h.score >= MOVE_ON_SHARE * hits[0]!.score,
  );
  const pool = fresh.length ? fresh : hits;
  const best = pool[0];
  const second = pool[1];
  const picked =
    second && second.score >= SECOND_SENTENCE_SHARE * best.score ? [best, second] : [best];
  return joined(picked.sort((a, b) => a.index - b.index).map((p) => p.text));
}

function topicList(k: Knowledge, lang: string): string | null {
  const topics = k.index.topics(3);
  if (topics.length === 0) return null;
  return new Intl.ListFormat(lang, { type: 'disjunction' }).format(topics);
}
