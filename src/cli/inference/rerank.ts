/** `avatar rerank QUERY DOC...`: compat-a rerank (BM25; spec 4.12). */
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { renderTable } from '../output.js';
import { inference, positiveInt } from './inference-common.js';

export const rerankCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    program
      .command('rerank')
      .description('Rank documents by relevance to a query  [POST /compat-a/v1/rerank]')
      .argument('<query>', 'the query')
      .argument('<documents...>', 'documents to rank')
      .option('--top-n <n>', 'keep the best n')
      .option('--model <id>', 'model id', 'avatar-rerank')
      .action(async (query: string, documents: string[], o: { topN?: string; model: string }) => {
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
      });
  },
};
