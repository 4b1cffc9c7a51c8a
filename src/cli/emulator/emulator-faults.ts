import { defineCommand } from '../define.js';
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

export const faultsCommand = defineCommand({
  name: 'faults',
  summary:
    'faults: a status and/or latency on HTTP routes, or faults inside live streams (list; add; clear)',
  async run({ cli }) {
    const r = await operatorCall<{ data: Record<string, unknown>[] }>(
      cli,
      'GET',
      await operatorPath('faultsList'),
    );
    cli.print(r, () => (r.data.length ? renderTable(r.data) : 'no faults'));
  },
  commands: [
    defineCommand({
      name: 'add',
      summary: 'inject a status and/or latency on a route, or a fault inside live streams',
      options: {
        route: {
          flags: '--route <route>',
          description:
            '"[METHOD ]/path" with {param} or * for any segment: "POST /api/v1/sessions", "/compat-a/v1/*"',
        },
        stream: {
          flags: '--stream <fault>',
          description: `a fault inside live streams: ${StreamFaultKinds.join(', ')} (docs/testing.md)`,
        },
        afterMs: {
          flags: '--after-ms <ms>',
          description:
            'drop_media, stall_mse, truncate_fragment, crash_box: this long after the media socket opens',
          parse: num('--after-ms'),
        },
        ms: {
          flags: '--ms <ms>',
          description: 'stall_mse: how long (at most 60000); delay_turn: how late',
          parse: num('--ms'),
        },
        session: { flags: '--session <id>', description: 'a stream fault for this session only' },
        status: {
          flags: '--status <code>',
          description: 'answer this status (400 to 599)',
          parse: num('--status'),
        },
        latencyMs: {
          flags: '--latency-ms <ms>',
          description: 'wait this long first (on the emulator clock)',
          parse: num('--latency-ms'),
        },
        count: {
          flags: '--count <n>',
          description: 'only the next n matching requests',
          parse: num('--count'),
        },
        probability: {
          flags: '--probability <p>',
          description: 'chance (0 to 1) that a matching request is hit',
          parse: num('--probability'),
        },
      },
      async run({ options: o, cli }) {
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
      },
    }),
    defineCommand({
      name: 'clear',
      summary: 'remove one fault, or all of them',
      args: { id: { usage: '[id]', description: 'one fault (default: all)' } },
      async run({ args: { id }, cli }) {
        const client = (await cli.ready(), cli.client());
        const r = await client.raw(
          'DELETE',
          id ? await operatorPath('faultsRemove', { id }) : await operatorPath('faultsClear'),
          { body: {} },
        );
        if (r.status !== 200)
          throw new CliError(`no fault ${id ?? ''}`.trim(), ExitCode.apiClientError);
        cli.print(r.body);
      },
    }),
  ],
});
