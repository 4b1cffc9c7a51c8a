/**
 * A small trigram language model in ARPA form, built in memory from weighted sentences
 * (docs/turns.md "The session's language model"). Interpolated Witten-Bell smoothing, which
 * takes fractional counts (a domain sentence counts `weight` times): for a history h,
 *
 *   p(w | h) = (c(h w) + T(h) p(w | h')) / (c(h) + T(h))
 *
 * where T(h) is the number of distinct words seen after h and h' is h without its first
 * word; the unigrams are interpolated with a base distribution over the vocabulary, so
 * every word in it keeps some probability: uniform over the words, or, given a general
 * vocabulary (word -> probability, e.g. the general English model's unigrams), half uniform
 * and half that vocabulary's own probabilities; its words join the vocabulary, so a word the
 * sentences never had stays reachable with a small share of the back-off mass. In ARPA terms a seen n-gram is written with this
 * probability and a history's back-off weight is T(h) / (c(h) + T(h)) (the interpolated
 * model is exactly its back-off form). Probabilities are log10, as ARPA wants.
 */

export interface WeightedSentences {
  /** Sentences as word lists (already lower case, every word in the recogniser's dictionary). */
  sentences: readonly (readonly string[])[];
  /** How many times each sentence counts. */
  weight: number;
}

const BOS = '<s>';
const EOS = '</s>';
const SEP = ' ';

interface Node {
  /** Count of the history (sum of its continuations' counts). */
  total: number;
  /** Continuation -> count. */
  next: Map<string, number>;
}

/** The ARPA text of a trigram model over the given sentences. */
export function buildArpa(
  parts: readonly WeightedSentences[],
  order = 3,
  general?: ReadonlyMap<string, number>,
): string {
  // histories[k]: history of k words (joined) -> its continuations.
  const histories: Map<string, Node>[] = Array.from({ length: order }, () => new Map());
  const vocab = new Set<string>();
  for (const { sentences, weight } of parts) {
    if (!(weight > 0)) continue;
    for (const s of sentences) {
      if (s.length === 0) continue;
      const toks = [BOS, ...s, EOS];
      for (const w of s) vocab.add(w);
      for (let i = 1; i < toks.length; i++) {
        for (let k = 0; k < order && i - k >= 0; k++) {
          const h = toks.slice(i - k, i).join(SEP);
          let node = histories[k]!.get(h);
          if (!node) histories[k]!.set(h, (node = { total: 0, next: new Map() }));
          node.total += weight;
          const w = toks[i]!;
          node.next.set(w, (node.next.get(w) ?? 0) + weight);
        }
      }
    }
  }
  let generalMass = 0;
  for (const [w, pw] of general ?? []) {
    vocab.add(w);
    generalMass += pw;
  }
  const words = [...vocab].sort();
  const flat = 1 / (words.length + 1); // the words and </s>
  const base = (w: string): number =>
    general && generalMass > 0 ? flat / 2 + (general.get(w) ?? 0) / generalMass / 2 : flat;
  // A seen n-gram's lower order (its last n-1 words) is seen too, so each order's
  // probabilities come from the one below by lookup: p[k] maps "h w" -> p(w | h).
  const p: Map<string, number>[] = [];
  const backoff = (k: number, h: string): number | null => {
    const node = histories[k]?.get(h);
    return node ? node.next.size / (node.total + node.next.size) : null;
  };
  for (let k = 0; k < order; k++) {
    const level = new Map<string, number>();
    for (const [h, node] of histories[k]!) {
      const rest = k === 0 ? '' : k === 1 ? '' : h.slice(h.indexOf(SEP) + 1) + SEP;
      for (const [w, c] of node.next) {
        const lower = k === 0 ? base(w) : p[k - 1]!.get(rest + w)!;
        level.set(
          k === 0 ? w : h + SEP + w,
          (c + node.next.size * lower) / (node.total + node.next.size),
        );
      }
    }
    p.push(level);
  }
  const lg = (x: number) => Math.log10(x).toFixed(6);
  const u = histories[0]!.get('')!;
  const grams: string[][] = [];
  const uni: string[] = [];
  for (const w of [BOS, EOS, ...words]) {
    // A word never seen after another (first in a sentence, or only in the general
    // vocabulary) has no unigram count: its share of the back-off mass.
    const prob =
      w === BOS
        ? '-99.000000'
        : lg(p[0]!.get(w) ?? (u.next.size * base(w)) / (u.total + u.next.size));
    const b = backoff(1, w);
    uni.push(b === null ? `${prob}\t${w}` : `${prob}\t${w}\t${lg(b)}`);
  }
  grams.push(uni);
  for (let k = 1; k < order; k++) {
    const lines: string[] = [];
    for (const gram of [...p[k]!.keys()].sort()) {
      const last = gram.slice(gram.lastIndexOf(SEP) + 1);
      const b = k + 1 < order && last !== EOS ? backoff(k + 1, gram) : null;
      const prob = lg(p[k]!.get(gram)!);
      lines.push(b === null ? `${prob}\t${gram}` : `${prob}\t${gram}\t${lg(b)}`);
    }
    grams.push(lines);
  }
  const out = ['\\data\\'];
  grams.forEach((g, i) => out.push(`ngram ${i + 1}=${g.length}`));
  out.push('');
  grams.forEach((g, i) => {
    out.push(`\\${i + 1}-grams:`, ...g, '');
  });
  out.push('\\end\\', '');
  return out.join('\n');
}
