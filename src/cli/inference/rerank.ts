/** `avatar rerank QUERY DOC...`: compat-a rerank (BM25; spec 4.12). */
import { defineCommand } from '../define.js';
import { renderTable } from '../output.js';
import { inference, positiveInt } from './inference-common.js';

export const rerankCommand = defineCommand({
  name: 'rerank',
  summary: 'Rank documents by relevance to a query  [POST /compat-a/v1/rerank]',
  args: {
    query: { usage: '<query>', description: 'the query' },
    documents: { usage: '<documents...>', description: 'documents to rank' },
  },
  options: {
    topN: { flags: '--top-n <n>', description: 'keep the best n' },
    model: { flags: '--model <id>', description: 'model id', default: 'avatar-rerank' },
  },
  async run({ args: { query, documents }, options: o, cli }) {
    const r = await inference(cli).rerank({
      model: o.model,
      query,
      documents,
      ...(o.topN ? { top_n: positiveInt(o.topN, '--top-n') } : {}),
    });
    cli.print(r, () =>
      renderTable(
        (r.data as { index: number; relevance_score: number; document: string }[]).map((d) => ({
          index: d.index,
          score: d.relevance_score.toFixed(4),
          document: d.document,
        })),
      ),
    );
  },
});
