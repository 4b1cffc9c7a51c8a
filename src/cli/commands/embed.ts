/** `avatar embed TEXT...`: compat-a embeddings (spec 4.12). */
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { inference, positiveInt } from './inference-common.js';
import { renderTable } from '../output.js';

export const embedCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    program
      .command('embed')
      .description('Embed texts; prints each vector (its size and first values; --json for all)  [POST /compat-a/v1/embeddings]')
      .argument('<text...>', 'one or more texts')
      .option('--model <id>', 'model id', 'avatar-embed')
      .option('--dimensions <n>', 'vector size')
      .action(async (texts: string[], o: { model: string; dimensions?: string }) => {
        const r = await inference(cli).embed({ model: o.model, input: texts, ...(o.dimensions ? { dimensions: positiveInt(o.dimensions, '--dimensions') } : {}) });
        cli.print(r, () => {
          const rows = (r.data as { index: number; embedding: number[] }[]).map((d) => ({
            index: d.index,
            text: texts[d.index],
            dimensions: d.embedding.length,
            first: d.embedding.slice(0, 4).map((x) => x.toFixed(4)).join(' ') + ' …',
          }));
          const sims = texts.length > 1 ? `\ncosine(0, 1) = ${cos(r.data[0].embedding, r.data[1].embedding).toFixed(4)}` : '';
          return renderTable(rows) + sims + `\n${r.usage.prompt_tokens} tokens`;
        });
      });
  },
};

const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
