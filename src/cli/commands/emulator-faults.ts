import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderTable } from '../output.js';
import { operatorCall, operatorPath } from './emulator-operator.js';

/**
 * `avatar emulator faults [add|clear]` (issue 18 item 6; docs/testing.md "Faults"): the
 * HTTP faults of a running emulator over `/_emulator/faults`.
 */
const num = (flag: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n))
    throw new CliError(`${flag} must be a number (got ${v})`, ExitCode.usage);
  return n;
};

export function registerFaults(group: Command, cli: CliContext): void {
  const faults = group
    .command('faults')
    .description('HTTP faults: a status and/or latency on the routes you name (list; add; clear)')
    .action(async () => {
      const r = await operatorCall<{ data: Record<string, unknown>[] }>(
        cli,
        'GET',
        await operatorPath('faultsList'),
      );
      cli.print(r, () => (r.data.length ? renderTable(r.data) : 'no faults'));
    });
  const add = faults
    .command('add')
    .description('inject a status and/or latency on a route')
    .requiredOption(
      '--route <route>',
      '"[METHOD ]/path" with {param} or * for any segment: "POST /api/v1/sessions", "/compat-a/v1/*"',
    )
    .option('--status <code>', 'answer this status (400 to 599)', num('--status'))
    .option(
      '--latency-ms <ms>',
      'wait this long first (on the emulator clock)',
      num('--latency-ms'),
    )
    .option('--count <n>', 'only the next n matching requests', num('--count'))
    .option(
      '--probability <p>',
      'chance (0 to 1) that a matching request is hit',
      num('--probability'),
    );
  add.action(async () => {
    const o = add.opts<{
      route: string;
      status?: number;
      latencyMs?: number;
      count?: number;
      probability?: number;
    }>();
    const body = {
      route: o.route,
      status: o.status,
      latency_ms: o.latencyMs,
      count: o.count,
      probability: o.probability,
    };
    cli.print(
      await operatorCall(
        cli,
        'POST',
        await operatorPath('faultsAdd'),
        JSON.parse(JSON.stringify(body)),
      ),
    );
  });
  faults
    .command('clear')
    .argument('[id]', 'one fault (default: all)')
    .description('remove one fault, or all of them')
    .action(async (id?: string) => {
      const client = (await cli.ready(), cli.client());
      const r = await client.raw(
        'DELETE',
        id ? await operatorPath('faultsRemove', { id }) : await operatorPath('faultsClear'),
        { body: {} },
      );
      if (r.status !== 200)
        throw new CliError(`no fault ${id ?? ''}`.trim(), ExitCode.apiClientError);
      cli.print(r.body);
    });
}
