import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { operatorCall, operatorPath } from './emulator-operator.js';
import { TriggerNames } from '../../contract/resources/operator.js';

/**
 * `avatar trigger NAME` (issue 18 item 5; docs/testing.md "Triggers"): make a running
 * emulator do what would otherwise take a real situation, over `/_emulator/triggers/*`.
 */
const NAMES = TriggerNames;

export const triggerCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const cmd = program
      .command('trigger')
      .description(`make the emulator do what would take a real situation: ${NAMES.join(', ')}`)
      .argument('<name>', NAMES.join(' | '))
      .argument(
        '[event]',
        'for webhook: the event (queue.claimable, queue.position, queue.dropped, agent.tool_call.succeeded, agent.tool_call.failed)',
      )
      .option('--session <id>', 'end-session, expire-token: the live session')
      .option(
        '--reason <reason>',
        'end-session: the end reason (default box_gone); drop-ticket: lapsed, idle or drained (default)',
      )
      .option('--ticket <id>', 'drop-ticket: the queue ticket (default the oldest)')
      .option('--stage <stage>', 'fail-speak: where the render fails, tts (default) or video')
      .option('--count <n>', 'fail-speak: how many renders fail (default 1)')
      .option(
        '--workspace-id <id>',
        "webhook: the workspace whose endpoints get it (default the emulator's)",
      )
      .option('--data <json>', "webhook: the event's data object, JSON");
    cmd.action(async (name: string, event: string | undefined) => {
      const o = cmd.opts<{
        session?: string;
        reason?: string;
        ticket?: string;
        stage?: string;
        count?: string;
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
      } else if (name === 'expire-token') {
        if (!o.session)
          throw new CliError(
            'name the session: avatar trigger expire-token --session ID',
            ExitCode.usage,
          );
        body = { session_id: o.session };
      } else if (name === 'drop-ticket') {
        body = {
          ...(o.ticket ? { ticket: o.ticket } : {}),
          ...(o.reason ? { reason: o.reason } : {}),
        };
      } else if (name === 'fail-speak') {
        const count = o.count === undefined ? undefined : Number(o.count);
        if (count !== undefined && !Number.isInteger(count))
          throw new CliError('--count must be a whole number', ExitCode.usage);
        body = {
          ...(o.stage ? { stage: o.stage } : {}),
          ...(count !== undefined ? { count } : {}),
        };
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
