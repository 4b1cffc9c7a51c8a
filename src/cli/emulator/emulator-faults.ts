import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderTable } from '../output.js';
import { StreamFaultKinds } from '../../contract/resources/operator.js';
import { operatorCall, operatorPath } from './emulator-operator.js';

/**
 * `avatar emulator faults [add|clear]` (issue 18 item 6; docs/testing.md "Faults"): the
 * HTTP and stream faults of a running emulator over `/_emulator/faults`.
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
    .description(
      'faults: a status and/or latency on HTTP routes, or faults inside live streams (list; add; clear)',
    )
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
    .description('inject a status and/or latency on a route, or a fault inside live streams')
    .option(
      '--route <route>',
      '"[METHOD ]/path" with {param} or * for any segment: "POST /api/v1/sessions", "/compat-a/v1/*"',
    )
    .option(
      '--stream <fault>',
      `a fault inside live streams: ${StreamFaultKinds.join(', ')} (docs/testing.md)`,
    )
    .option(
      '--after-ms <ms>',
      'drop_media, stall_mse, truncate_fragment, crash_box: this long after the media socket opens',
      num('--after-ms'),
    )
    .option('--ms <ms>', 'stall_mse: how long (at most 60000); delay_turn: how late', num('--ms'))
    .option('--session <id>', 'a stream fault for this session only')
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
      route?: string;
      stream?: string;
      afterMs?: number;
      ms?: number;
      session?: string;
      status?: number;
      latencyMs?: number;
      count?: number;
      probability?: number;
    }>();
    if ((o.route === undefined) === (o.stream === undefined))
      throw new CliError(
        'give --route (an HTTP fault) or --stream (a stream fault)',
        ExitCode.usage,
      );
    const body = {
      route: o.route,
      // delay-turn and delay_turn alike
      stream: o.stream?.replace(/-/g, '_'),
      after_ms: o.afterMs,
      ms: o.ms,
      session: o.session,
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
