import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { operatorCall, operatorPath } from './emulator-operator.js';

/**
 * `avatar trigger NAME` (issue 18 item 5; docs/testing.md "Triggers"): make a running
 * emulator do what would otherwise take a real situation, over `/_emulator/triggers/*`.
 */
const NAMES = ['fill-seats', 'free-seats', 'drain-queue', 'webhook', 'end-session'] as const;

export const triggerCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const cmd = program
      .command('trigger')
      .description(
        'make the emulator do what would take a real situation: fill-seats, free-seats, drain-queue, webhook, end-session',
      )
      .argument('<name>', NAMES.join(' | '))
      .argument(
        '[event]',
        'for webhook: the event (queue.claimable, queue.position, queue.dropped, agent.tool_call.succeeded, agent.tool_call.failed)',
      )
      .option('--session <id>', 'end-session: the live session to end')
      .option('--reason <reason>', 'end-session: the end reason (default box_gone)')
      .option(
        '--workspace-id <id>',
        "webhook: the workspace whose endpoints get it (default the emulator's)",
      )
      .option('--data <json>', "webhook: the event's data object, JSON");
    cmd.action(async (name: string, event: string | undefined) => {
      const o = cmd.opts<{
        session?: string;
        reason?: string;
        workspaceId?: string;
        data?: string;
      }>();
      if (!(NAMES as readonly string[]).includes(name))
        throw new CliError(`no trigger ${name}: one of ${NAMES.join(', ')}`, ExitCode.usage);
      let body: Record<string, unknown> = {};
      if (name === 'webhook') {
        if (!event)
          throw new CliError(
            'name the event: avatar trigger webhook queue.claimable',
            ExitCode.usage,
          );
        let data: unknown = {};
        try {
          data = o.data ? JSON.parse(o.data) : {};
        } catch {
          throw new CliError('--data must be a JSON object', ExitCode.usage);
        }
        body = { event, ...(o.workspaceId ? { workspace_id: o.workspaceId } : {}), data };
      } else if (name === 'end-session') {
        if (!o.session)
          throw new CliError(
            'name the session: avatar trigger end-session --session ID',
            ExitCode.usage,
          );
        body = { session_id: o.session, ...(o.reason ? { reason: o.reason } : {}) };
      }
      const r = await operatorCall<Record<string, unknown>>(
        cli,
        'POST',
        await operatorPath('trigger', { name }),
        body,
      );
      cli.print(r);
    });
  },
};
