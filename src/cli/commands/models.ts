/** `avatar models`: the models of compat-a with their compat-b slugs and tasks (spec 4.12). */
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { renderTable } from '../output.js';
import { inference } from './inference-common.js';

export const modelsCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    program
      .command('models')
      .description('List the models, their slugs (avatar run SLUG) and tasks  [GET /api/model-status]')
      .action(async () => {
        const r = await inference(cli).modelStatus();
        cli.print(r, () =>
          renderTable(
            (r.models as { model_id: string; spec_id: string; enabled: boolean; tasks: string[] }[]).map((m) => ({
              model: m.model_id,
              slug: m.spec_id,
              enabled: m.enabled ? 'yes' : 'no',
              tasks: m.tasks.join(', '),
            })),
          ),
        );
      });
  },
};
