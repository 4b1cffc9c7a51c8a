/** `avatar run SLUG --input JSON [--sync]`: submit to compat-b (spec 4.12). */
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { inference, jsonArg } from './inference-common.js';

export const runCommand = defineCommand({
  name: 'run',
  summary:
    'Submit a request to a model by slug (avatar models lists them)  [POST /compat-b/{slug}]',
  args: { slug: { usage: '<slug>', description: 'model slug, e.g. image-v1' } },
  options: {
    input: {
      flags: '--input <json>',
      description: 'the request body: inline JSON, @file or @-',
      required: true,
    },
    sync: {
      flags: '--sync',
      description: 'wait for the result (the service holds the request up to 120 s)',
    },
  },
  async run({ args: { slug }, options: o, cli }) {
    const input = jsonArg(cli, o.input, '--input');
    if (!input || typeof input !== 'object' || Array.isArray(input))
      throw new CliError('--input must be a JSON object', ExitCode.usage);
    // 200 (sync_mode, finished) or 202 (queued): one shape with what either may carry.
    const r: {
      request_id: string;
      status: string;
      result?: unknown;
      error?: { code: string; message: string };
    } = await inference(cli).submit(slug, {
      ...(input as object),
      ...(o.sync ? { sync_mode: true } : {}),
    });
    if (r.status === 'failed') {
      cli.print(r);
      throw new CliError(
        `request ${r.request_id} failed: ${r.error?.code}: ${r.error?.message}`,
        ExitCode.apiClientError,
      );
    }
    cli.print(r, () =>
      r.result !== undefined
        ? JSON.stringify(r.result, null, 2)
        : `submitted ${r.request_id} (${r.status}); poll with: avatar jobs get ${r.request_id}`,
    );
  },
});
