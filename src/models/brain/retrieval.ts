/**
 * The local brain's memory: BM25 over the sentences of what the session froze (backstory,
 * memory block, the persona facts of the system prompt). A user turn is scored against
 * every sentence; the best sentence above zero is the answer. Terms are lower-cased words
 * with stop words removed (the `stopword` lists for English plus the reply language) and
 * Porter-stemmed (`stemmer`), so "where did you live" finds "I have lived in Lisbon".
 */
import sw from 'stopword';
import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';
import { Bm25 } from './bm25.js';
import { baseForm, related } from './lexicon.js';
import { STOP_LISTS } from './text-language.js';
import { words } from './text.js';
import { isVerbForm } from './backstory.js';

export interface Passage {
  text: string;
  /** Where it came from; memory outranks backstory on a tie (it is about this user). */
  source: 'backstory' | 'memory' | 'prompt';
  /** The language it is written in (text-language.ts), null when it does not tell. */
  lang?: string | null;
}

export interface Scored extends Passage {
  score: number;
  /** Index in the corpus order, for stable tie-breaking. */
  index: number;
}

/**
 * Words the `stopword` lists lack that still say nothing about a persona: the accented verb
 * forms of one letter ("é", "è", "à") and the Chinese function characters (a Chinese word is
 * one character a term here, so "上" in "火星上" would otherwise find "河上").
 */
const EXTRA_STOP = [
  ...'é è à ò ù ì ó'.split(' '),
  ...'我你您他她它们是的了在有吗呢吧么什上下个和也都就不很会要这那多少哪谁怎为啊呀与或吧'.split(''),
];

/** English plus the reply language's list, per language that has one (others: English). */
const stopSets = new Map<string, Set<string>>(
  Object.entries(STOP_LISTS).map(([lang, list]) => [
    lang,
    new Set([...sw.eng, ...list, ...EXTRA_STOP]),
  ]),
);

function stopWords(lang: string): Set<string> {
  return stopSets.get(lang) ?? stopSets.get('en')!;
}

/** Porter stems (the one stemmer), memoised: a conversation reuses a small vocabulary. */
const stems = new LRUCache<string, string>({ max: 50_000 });
/** Longer "words" (a hostile 100 KB run of letters) are stemmed and not remembered. */
const MEMO_WORD_CHARS = 40;
export function stem(w: string): string {
  if (w.length > MEMO_WORD_CHARS) return stemmer(w);
  let s = stems.get(w);
  if (s === undefined) {
    s = stemmer(w);
    stems.set(w, s);
  }
  return s;
}

/** Every word of `text` (the one tokeniser, text.ts), to its base form and Porter stem. */
export function stemmedWords(text: string): string[] {
  return words(text).map((w) => stem(baseForm(w)));
}

/** Index terms of `text`: stop words out, irregular forms to their base, Porter stems. */
export function terms(text: string, lang = 'en'): string[] {
  const stop = stopWords(lang);
  return words(text)
    .filter((w) => !stop.has(w))
    .map((w) => stem(baseForm(w)));
}

/** Query terms: as `terms`, each joined by the words of its topic group (lexicon.ts). */
export function queryTerms(text: string, lang = 'en'): string[] {
  const stop = stopWords(lang);
  const out = new Set<string>();
  for (const w of words(text)) {
    const base = baseForm(w);
    // A stop word can still name a topic ("from" in "where are you from").
    const group = related(base);
    if (stop.has(w) && group.length === 1) continue;
    for (const r of group) out.add(stem(r));
  }
  return [...out];
}

/** What a word of a query's topic group counts, beside a word of the query itself. */
const GROUP_WEIGHT = 0.5;

export class PassageIndex {
  private readonly docs: { passage: Passage }[];
  private readonly bm25: Bm25;

  constructor(
    passages: Passage[],
    private readonly lang = 'en',
  ) {
    this.docs = passages.map((passage) => ({ passage }));
    this.bm25 = new Bm25(passages.map((p) => terms(p.text, lang)));
  }

  /** The first backstory sentence (else the first prompt fact), or null. */
  first(): Passage | null {
    const d =
      this.docs.find((x) => x.passage.source === 'backstory') ??
      this.docs.find((x) => x.passage.source === 'prompt');
    return d?.passage ?? null;
  }

  /** Every passage, in corpus order. */
  all(): Passage[] {
    return this.docs.map((d) => d.passage);
  }

  get size(): number {
    return this.docs.length;
  }

  /**
   * Passages scoring above zero for `query`, best first (ties: memory first, then corpus
   * order). A word of the query counts fully, a word only of its topic group (lexicon.ts) half
   * ("where did you grow up" prefers "I grew up in Lisbon" to "I work at the city museum");
   * `expand: false` leaves the groups out.
   */
  search(query: string, expand = true): Scored[] {
    const literal = terms(query, this.lang);
    const own = this.bm25.scores(literal);
    const have = new Set(literal);
    const more = expand ? queryTerms(query, this.lang).filter((t) => !have.has(t)) : [];
    const wider = more.length ? this.bm25.scores(more) : null;
    const scores = wider ? own.map((x, i) => x + GROUP_WEIGHT * wider[i]!) : own;
    const out: Scored[] = [];
    this.docs.forEach((d, index) => {
      const score = scores[index]!;
      if (score > 0) out.push({ ...d.passage, score, index });
    });
    const rank = (p: Passage) => (p.source === 'memory' ? 0 : 1);
    return out.sort((a, b) => b.score - a.score || rank(a) - rank(b) || a.index - b.index);
  }

  /**
   * Up to `limit` topics for "what can you do" and "I don't know ... ask me about": words
   * that read well after "about" in a list (issue 32 item 10: never "or problem"). From the
   * backstory only (else nothing: the system prompt is instructions and a role, "a friendly
   * product guide" would come out as "ask me about friendly"; the memory block is about the
   * user). First the items of a list the backstory gives ("billing, passwords and
   * subscriptions"), then per sentence a proper noun (capitalised mid-sentence), else the
   * longest content word that is a noun said without "a"/"the" before it (a plural, a mass
   * noun: "settings", not "the problem"), not a verb and not an -ed/-ing form. They come out
   * in the order the backstory tells them.
   */
  topics(limit: number): string[] {
    const stop = stopWords(this.lang);
    const own = this.docs.filter((d) => d.passage.source === 'backstory');
    if (own.length === 0) return [];
    const picks: { word: string; score: number; at: number }[] = [];
    const seen = new Set<string>();
    const take = (word: string, score: number, at: number) => {
      const key = word
        .toLowerCase()
        .split(' ')
        .map((w) => stem(w))
        .join(' ');
      if (seen.has(key)) return;
      seen.add(key);
      picks.push({ word, score, at });
    };
    own.forEach((d, at) => {
      for (const item of listItems(d.passage.text, stop)) take(item, 1000, at);
    });
    own.forEach((d, at) => {
      let best: { word: string; score: number } | null = null;
      const raw = d.passage.text.match(/[\p{L}][\p{L}'-]*/gu) ?? [];
      raw.forEach((w, i) => {
        const lw = w.toLowerCase();
        if (stop.has(lw) || lw.length < 4 || /(ed|ing)$/.test(lw) || seen.has(stem(lw))) return;
        const proper = i > 0 && /^\p{Lu}/u.test(w);
        if (!proper && (isVerbForm(lw) || (afterDeterminer(raw, i, stop) && !/[^s]s$/.test(lw))))
          return;
        const score = (proper ? 100 : 0) + w.length;
        if (!best || score > best.score) best = { word: proper ? w : lw, score };
      });
      if (best) {
        const b: { word: string; score: number } = best;
        take(b.word, b.score, at);
      }
    });
    return picks
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .slice(0, limit)
      .sort((a, b) => a.at - b.at)
      .map((p) => p.word);
  }
}

/** Words that make a noun singular and countable before it ("a", "the", "un", "der", ...). */
const DETERMINERS = new Set(
  'a an the one this that each every my your his her its our their un une una uno el la le lo il der die das ein eine einen dem den des o um uma'.split(
    ' ',
  ),
);

/** A determiner before the word, with at most two words between ("a clear next step"). */
function afterDeterminer(raw: readonly string[], i: number, stop: Set<string>): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    const w = raw[j]!.toLowerCase();
    if (DETERMINERS.has(w)) return true;
    if (stop.has(w)) return false;
  }
  return false;
}

/** The items of a list of three or more ("billing, passwords and subscriptions"): bare nouns only. */
function listItems(text: string, stop: Set<string>): string[] {
  const out: string[] = [];
  const ITEM = "\\p{L}[\\p{L}'-]*(?: \\p{L}[\\p{L}'-]*)?";
  const re = new RegExp(
    `(${ITEM})((?:,\\s*${ITEM})+),?\\s+(?:and|or|y|o|e|ed|et|ou|und|oder)\\s+(${ITEM})`,
    'gu',
  );
  for (const m of text.matchAll(re)) {
    const items = [m[1]!, ...m[2]!.split(',').slice(1), m[3]!].map((x) => x.trim());
    // The first item is what the regex found before the first comma: its last word(s) after a verb or preposition.
    const first = items[0]!.split(' ');
    // "to cook, paint and travel" is a list of things done, not of topics.
    if (first.length > 1 && first[0]!.toLowerCase() === 'to') continue;
    if (
      first.length > 1 &&
      (stop.has(first[0]!.toLowerCase()) || isVerbForm(first[0]!.toLowerCase()))
    )
      items[0] = first[1]!;
    for (const item of items) {
      const ws = item.split(' ');
      if (ws.some((w) => DETERMINERS.has(w.toLowerCase()) || stop.has(w.toLowerCase()))) continue;
      out.push(ws.every((w) => /^\p{Lu}/u.test(w)) ? item : item.toLowerCase());
    }
  }
  return out;
}
