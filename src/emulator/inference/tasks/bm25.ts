import { terms } from './text.js';

/**
 * Okapi BM25 (k1 = 1.2, b = 0.75) over the documents of one request, with the
 * non-negative IDF ln(1 + (N - n + 0.5) / (n + 0.5)) so a term found in every document still
 * counts a little. `relevance_score` is s / (s + 1) of the BM25 sum s: in [0, 1), same
 * order as BM25 (ours, docs/fidelity.md).
 */
const K1 = 1.2;
const B = 0.75;

export function bm25Scores(query: string, documents: readonly string[]): number[] {
  const docs = documents.map(terms);
  const n = docs.length;
  if (n === 0) return [];
  const avgLen = docs.reduce((s, d) => s + d.length, 0) / n || 1;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const q = [...new Set(terms(query))];
  return docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
    let s = 0;
    for (const t of q) {
      const f = tf.get(t);
      if (!f) continue;
      const nt = df.get(t) ?? 0;
      const idf = Math.log(1 + (n - nt + 0.5) / (nt + 0.5));
      s += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgLen));
    }
    return s;
  });
}

export const relevance = (s: number): number => s / (s + 1);
