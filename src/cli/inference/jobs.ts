/** `avatar jobs submit|get|cancel`: the job API (spec 4.12). */
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { group, inference, jsonArg } from './inference-common.js';

export const jobsCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const jobs = group(program, 'jobs', 'asynchronous model jobs  [/api/jobs]');
    jobs
      .command('submit')
      .description('Submit a job; prints { id, queue_id }')
      .requiredOption('--model <id>', 'model id (avatar models)')
      .requiredOption('--task <task>', 'a task of that model')
      .option('--payload <json>', 'task payload: inline JSON, @file or @-', '{}')
      .action(async (o: { model: string; task: string; payload: string }) => {
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
      });
    jobs
      .command('get')
      .argument('<id>')
      .description('Show a job: status, result, error')
      .action(async (id: string) => cli.print(await inference(cli).job(id)));
    jobs
      .command('cancel')
      .argument('<id>')
      .description('Cancel a pending or processing job')
      .action(async (id: string) => cli.print(await inference(cli).cancelJob(id)));
  },
};
