/** `avatar jobs submit|get|cancel`: the job API (spec 4.12). */
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { inference, jsonArg } from './inference-common.js';

export const jobsCommands = [
  defineCommand({
    name: 'submit',
    summary: 'Submit a job; prints { id, queue_id }',
    options: {
      model: { flags: '--model <id>', description: 'model id (avatar models)', required: true },
      task: { flags: '--task <task>', description: 'a task of that model', required: true },
      payload: {
        flags: '--payload <json>',
        description: 'task payload: inline JSON, @file or @-',
        default: '{}',
      },
    },
    async run({ options: o, cli }) {
      const payload = jsonArg(cli, o.payload, '--payload');
      if (!payload || typeof payload !== 'object' || Array.isArray(payload))
        throw new CliError('--payload must be a JSON object', ExitCode.usage);
      cli.print(
        await inference(cli).createJob({
          model_id: o.model,
          task: o.task,
          payload: payload as Record<string, unknown>,
        }),
      );
    },
  }),
  defineCommand({
    name: 'get',
    summary: 'Show a job: status, result, error',
    args: { id: '<id>' },
    run: async ({ args: { id }, cli }) => cli.print(await inference(cli).job(id)),
  }),
  defineCommand({
    name: 'cancel',
    summary: 'Cancel a pending or processing job',
    args: { id: '<id>' },
    run: async ({ args: { id }, cli }) => cli.print(await inference(cli).cancelJob(id)),
  }),
];
