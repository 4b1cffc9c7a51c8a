/**
 * The language a sentence of the frozen context is written in, so the local brain does not
 * quote an English backstory inside a French reply (issue 8 item 4: "answers in the requested
 * language where it can"; docs/fidelity.md "Edge trial fixes (session 3)"). Synchronous and
 * cheap: a script test for the scripts that tell on their own (Han, kana, Hangul, Cyrillic...),
 * else the language whose `stopword` list covers most of the sentence's words. null when
 * nothing tells (a bare name): such a sentence is quoted in any reply.
 */
import sw from 'stopword';
import { words } from './text.js';

const SCRIPTS: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Thai}/u, 'th'],
  [/\p{Script=Devanagari}/u, 'hi'],
];

/** The `stopword` lists of the languages the local brain tells apart (English first). */
export const STOP_LISTS: Readonly<Record<string, readonly string[]>> = {
  en: sw.eng,
  es: sw.spa,
  fr: sw.fra,
  de: sw.deu,
  it: sw.ita,
  pt: sw.por,
  nl: sw.nld,
};

const LISTS: [string, Set<string>][] = Object.entries(STOP_LISTS).map(([code, list]) => [
  code,
  new Set(list),
]);

/** The primary language subtag of `text`, or null when it does not tell. */
export function textLanguage(text: string): string | null {
  for (const [re, code] of SCRIPTS) if (re.test(text)) return code;
  const ws = words(text);
  let best: string | null = null;
  let bestHits = 0;
  for (const [code, set] of LISTS) {
    const hits = ws.reduce((n, w) => n + (set.has(w) ? 1 : 0), 0);
    if (hits > bestHits) [best, bestHits] = [code, hits]; // ties keep the earlier list (English first)
  }
  return best;
}

/** The language most of `texts` are written in (ignoring those that do not tell), or null. */
export function mainLanguage(texts: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const t of texts) {
    const l = textLanguage(t);
    if (l) counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [l, n] of counts) if (best === null || n > counts.get(best)!) best = l;
  return best;
}
