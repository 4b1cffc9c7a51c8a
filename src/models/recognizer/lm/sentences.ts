/**
 * Text -> sentences of dictionary words, for the session's language model. Lower case,
 * split at sentence punctuation; a word the pronouncing dictionary lacks (a name, a number,
 * a typo) splits the sentence there (an n-gram is never built across it: the decoder could
 * not hear it anyway). Curly apostrophes are straightened ("don’t" is "don't").
 */
/** Words of Debian's CMU dictionary, from its text (`word` and `word(2)` alternates are one word). */
export function dictionaryWordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const line of text.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp <= 0) continue;
    const w = line.slice(0, sp);
    const paren = w.indexOf('(');
    words.add(paren > 0 ? w.slice(0, paren) : w);
  }
  return words;
}

/** `text`'s sentences as lists of words in `dict` (see above). */
export function sentencesOf(text: string, dict: ReadonlySet<string>): string[][] {
  const out: string[][] = [];
  for (const raw of text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .split(/[.!?;:\n]+|\s[-–—]\s|[()"“”]/)) {
    let cur: string[] = [];
    for (const tok of raw.split(/[^a-z0-9']+/)) {
      const w = tok.replace(/^'+|'+$/g, '');
      if (!w) continue;
      if (dict.has(w)) cur.push(w);
      else if (cur.length) {
        out.push(cur);
        cur = [];
      }
    }
    if (cur.length) out.push(cur);
  }
  return out;
}
