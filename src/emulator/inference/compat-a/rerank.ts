import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { bm25Scores, relevance } from '../tasks/bm25.js';
import { countTokens } from '../tasks/text.js';
import { invalid } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { localModel, passToUpstream } from './resolve.js';

/**
 * Spec 4.12 POST /compat-a/v1/rerank (BM25 over the documents sent) and /score, whose
 * payload the spec leaves open: we take the text-pair scoring shape of vLLM's score API,
 * `{ model, text_1, text_2 }` (1:1, 1:N or N:N), and answer
 * `{ id, object: list, created, model, data: [ { index, object: score, score } ], usage }`.
 */
export function registerRerank(app: App, svc: InferenceServices): void {
  implementInference(
    app,
    svc,
    inference.rerank,
    async ({ body: b, auth: { usage } }) => {
      const target = { model: localModel(svc, b.model, 'rerank') };
      const scores = bm25Scores(b.query, b.documents);
      const ranked = scores
        .map((s, index) => ({ index, relevance_score: relevance(s) }))
        .sort((x, y) => y.relevance_score - x.relevance_score || x.index - y.index)
        .slice(0, b.top_n ?? b.documents.length);
      usage.modelId = target.model.id;
      usage.promptTokens =
        countTokens(b.query) + b.documents.reduce((s, d) => s + countTokens(d), 0);
      return {
        id: svc.ctx.ids.uuid(),
        object: 'list' as const,
        model: b.model,
        data: ranked.map((r) =>
          b.return_documents === false ? r : { ...r, document: b.documents[r.index] },
        ),
        usage: { prompt_tokens: usage.promptTokens, total_tokens: usage.promptTokens },
      };
    },
    { before: passToUpstream(svc, 'rerank', '/rerank') },
  );

  implementInference(
    app,
    svc,
    inference.score,
    async ({ body: b, auth: { usage } }) => {
      const target = { model: localModel(svc, b.model, 'score') };
      const scores = scorePairs(b.text_1, b.text_2);
      usage.modelId = target.model.id;
      const all = [b.text_1, b.text_2].flat();
      usage.promptTokens = all.reduce((s, t) => s + countTokens(t), 0);
      return {
        id: svc.ctx.ids.uuid(),
        object: 'list' as const,
        created: Math.floor(svc.ctx.clock.now() / 1000),
        model: b.model,
        data: scores.map((score, index) => ({ index, object: 'score' as const, score })),
        usage: { prompt_tokens: usage.promptTokens, total_tokens: usage.promptTokens },
      };
    },
    { before: passToUpstream(svc, 'score', '/score') },
  );
}

/**
 * vLLM's pairing rules: one text_1 against each text_2, or text_1[i] with text_2[i]. The
 * BM25 corpus is the text_2 side, so a term rare among them weighs more.
 */
export function scorePairs(t1: string | string[], t2: string | string[]): number[] {
  const seconds = typeof t2 === 'string' ? [t2] : t2;
  if (typeof t1 === 'string' || t1.length === 1) {
    const q = typeof t1 === 'string' ? t1 : t1[0]!;
    return bm25Scores(q, seconds).map(relevance);
  }
  if (t1.length !== seconds.length) {
    throw invalid(
      'text_1 and text_2 lists must have the same length (or text_1 one text)',
      'text_2',
    );
  }
  return t1.map((q, i) => {
    const col = bm25Scores(q, seconds);
    return relevance(col[i]!);
  });
}
