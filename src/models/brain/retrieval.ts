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

/** English plus the reply language's list, per language that has one (others: English). */
const stopSets = new Map<string, Set<string>>(
  Object.entries(STOP_LISTS).map(([lang, list]) => [lang, new Set([...sw.eng, ...list])]),
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

  /** Passages scoring above zero for `query`, best first (ties: memory first, then corpus order). */
  search(query: string): Scored[] {
    const scores = this.bm25.scores(queryTerms(query, this.lang));
    const out: Scored[] = [];
    this.docs.forEach((d, index) => {
      const score = scores[index]!;
      if (score > 0) out.push({ ...d.passage, score, index });
    });
    const rank = (p: Passage) => (p.source === 'memory' ? 0 : 1);
    return out.sort((a, b) => b.score - a.score || rank(a) - rank(b) || a.index - b.index);
  }

  /**
   * Up to `limit` topics for "what can you do": one word from each of the best sentences of
   * the backstory (else the prompt facts; the memory block is about the user, not a topic).
   * Per sentence, a proper noun (capitalised mid-sentence) wins, else the longest content
   * word that is not an -ed/-ing form; topics come out in the order the backstory tells them.
   */
  topics(limit: number): string[] {
    const stop = stopWords(this.lang);
    // Topics are what the persona knows: backstory sentences. Without a backstory there is
    // nothing to offer (the system prompt is instructions and a role: "a friendly product
    // guide" would come out as "ask me about friendly").
    const fromBackstory = this.docs.some((d) => d.passage.source === 'backstory');
    if (!fromBackstory) return [];
    const picks: { word: string; score: number; at: number }[] = [];
    const seen = new Set<string>();
    this.docs.forEach((d, at) => {
      if (d.passage.source === 'memory' || (fromBackstory && d.passage.source !== 'backstory'))
        return;
      let best: { word: string; score: number } | null = null;
      const raw = d.passage.text.match(/[\p{L}][\p{L}'-]*/gu) ?? [];
      raw.forEach((w, i) => {
        const lw = w.toLowerCase();
        if (stop.has(lw) || lw.length < 4 || /(ed|ing)$/.test(lw) || seen.has(stem(lw))) return;
        const proper = i > 0 && /^\p{Lu}/u.test(w);
        const score = (proper ? 100 : 0) + w.length;
        if (!best || score > best.score) best = { word: proper ? w : lw, score };
      });
      if (best) {
        const b: { word: string; score: number } = best;
        seen.add(stem(b.word.toLowerCase()));
        picks.push({ ...b, at });
      }
    });
    return picks
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .slice(0, limit)
      .sort((a, b) => a.at - b.at)
      .map((p) => p.word);
  }
}
