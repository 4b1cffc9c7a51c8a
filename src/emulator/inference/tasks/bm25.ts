import { Bm25 } from '../../../models/brain/bm25.js';
import { terms } from '../../../models/brain/retrieval.js';

/**
 * compat-a `rerank`/`score` and the `rerank` task: the one BM25 (src/models/brain/bm25.ts)
 * over the documents of one request, with the local brain's terms (stop words out, Porter
 * stems). `relevance_score` is s / (s + 1) of the BM25 sum s: in [0, 1), same order as BM25
 * (ours, docs/fidelity.md).
 */
export function bm25Scores(query: string, documents: readonly string[]): number[] {
  if (documents.length === 0) return [];
  return new Bm25(documents.map((d) => terms(d))).scores(terms(query));
}

export const relevance = (s: number): number => s / (s + 1);
