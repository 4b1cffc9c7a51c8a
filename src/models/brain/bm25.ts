/**
 * The one BM25 scorer: Okapi BM25 with Lucene's constants (k1 = 1.2, b = 0.75) and the
 * non-negative IDF ln(1 + (N - n + 0.5) / (n + 0.5)), so a term found in every document
 * still counts a little. The local brain's memory (retrieval.ts) and compat-a
 * `rerank`/`score` and the `rerank` task (src/emulator/inference/tasks/bm25.ts) score with
 * it, over the same terms (`terms` in retrieval.ts).
 */
const K1 = 1.2;
const B = 0.75;

export class Bm25 {
  private readonly tf: Map<string, number>[];
  private readonly len: number[];
  private readonly df = new Map<string, number>();
  private readonly avgLen: number;

  /** `docs`: the terms of each document, in corpus order. */
  constructor(docs: readonly (readonly string[])[]) {
    this.len = docs.map((d) => d.length);
    this.tf = docs.map((d) => {
      const tf = new Map<string, number>();
      for (const t of d) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return tf;
    });
    this.avgLen = this.len.reduce((a, n) => a + n, 0) / Math.max(1, docs.length) || 1;
  }

  /** The BM25 sum of each document for `query` (each distinct term counted once). */
  scores(query: Iterable<string>): number[] {
    const q = [...new Set(query)];
    const n = this.tf.length;
    return this.tf.map((tf, i) => {
      let s = 0;
      for (const t of q) {
        const f = tf.get(t);
        if (!f) continue;
        const nt = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - nt + 0.5) / (nt + 0.5));
        s += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * this.len[i]!) / this.avgLen));
      }
      return s;
    });
  }
}
