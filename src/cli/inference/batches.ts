/** `avatar batches create|list|get|cancel`: compat-a batches (spec 4.12). */
import type { InferenceClient } from '../../client/inference.js';
import { defineCommand } from '../define.js';
import { renderTable } from '../output.js';
import { inference, termWidth } from './inference-common.js';

/** A batch as the contract types it (GET /v1/batches/{id}). */
type Batch = Awaited<ReturnType<InferenceClient['batch']>>;

const row = (b: Batch) => ({
  id: b.id,
  status: b.status,
  done: `${b.request_counts.completed}/${b.request_counts.total}`,
  failed: b.request_counts.failed,
  endpoint: b.endpoint,
  output_file_id: b.output_file_id ?? '',
  error_file_id: b.error_file_id ?? '',
});

export const batchesCommands = [
  defineCommand({
    name: 'create',
    summary:
      'Run every line of an uploaded JSONL file (avatar files upload FILE) through an endpoint',
    options: {
      input: { flags: '--input <fileId>', description: 'input file id', required: true },
      endpoint: {
        flags: '--endpoint <path>',
        description: 'endpoint of every line',
        default: '/v1/chat/completions',
      },
    },
    async run({ options: o, cli }) {
      const b = await inference(cli).createBatch({ input_file_id: o.input, endpoint: o.endpoint });
      cli.print(b, () => renderTable([row(b)], undefined, termWidth(cli)));
    },
  }),
  defineCommand({
    name: 'list',
    summary: 'List batches',
    async run({ cli }) {
      const r = await inference(cli).batches();
      cli.print(r, () => renderTable(r.data.map(row), undefined, termWidth(cli)));
    },
  }),
  defineCommand({
    name: 'get',
    summary: 'Show a batch (status, counts, output and error files)',
    args: { id: '<id>' },
    run: async ({ args: { id }, cli }) => cli.print(await inference(cli).batch(id)),
  }),
  defineCommand({
    name: 'cancel',
    summary: 'Cancel a running batch',
    args: { id: '<id>' },
    run: async ({ args: { id }, cli }) => cli.print(await inference(cli).cancelBatch(id)),
  }),
];
