/** `avatar batches create|list|get|cancel`: compat-a batches (spec 4.12). */
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { renderTable } from '../output.js';
import { group, inference, termWidth } from './inference-common.js';

const row = (b: Record<string, any>) => ({
  id: b.id,
  status: b.status,
  done: `${b.request_counts.completed}/${b.request_counts.total}`,
  failed: b.request_counts.failed,
  endpoint: b.endpoint,
  output_file_id: b.output_file_id ?? '',
  error_file_id: b.error_file_id ?? '',
});

export const batchesCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const batches = group(
      program,
      'batches',
      'batches of requests from a JSONL file  [/compat-a/v1/batches]',
    );
    batches
      .command('create')
      .description(
        'Run every line of an uploaded JSONL file (avatar files upload FILE) through an endpoint',
      )
      .requiredOption('--input <fileId>', 'input file id')
      .option('--endpoint <path>', 'endpoint of every line', '/v1/chat/completions')
      .action(async (o: { input: string; endpoint: string }) => {
        const b = await inference(cli).createBatch({
          input_file_id: o.input,
          endpoint: o.endpoint,
        });
        cli.print(b, () => renderTable([row(b)], undefined, termWidth(cli)));
      });
    batches
      .command('list')
      .description('List batches')
      .action(async () => {
        const r = await inference(cli).batches();
        cli.print(r, () => renderTable(r.data.map(row), undefined, termWidth(cli)));
      });
    batches
      .command('get')
      .argument('<id>')
      .description('Show a batch (status, counts, output and error files)')
      .action(async (id: string) => cli.print(await inference(cli).batch(id)));
    batches
      .command('cancel')
      .argument('<id>')
      .description('Cancel a running batch')
      .action(async (id: string) => cli.print(await inference(cli).cancelBatch(id)));
  },
};
