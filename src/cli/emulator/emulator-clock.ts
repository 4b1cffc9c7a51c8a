import type { CliContext } from '../context.js';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { operatorCall, operatorPath } from './emulator-operator.js';

/**
 * `avatar emulator clock [freeze|resume|advance DURATION]` (issue 18 item 4; docs/testing.md
 * "Time"): read, freeze, resume and advance a running emulator's clock over
 * `/_emulator/clock/*`. Advancing fires every timer that falls due, in order.
 */

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** `1500ms`, `90s`, `5m`, `2h`, `1d`, or a bare number of seconds; one or more parts (`1h30m`). */
export function parseDuration(text: string): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|min|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) {
    throw new CliError(
      `a duration is a number with a unit, like 90s, 5m, 2h, 1d or 1500ms (got ${text})`,
      ExitCode.usage,
    );
  }
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0));
}

interface ClockState {
  now_ms: number;
  now: string;
  frozen: boolean;
  drivable: boolean;
}

function show(cli: CliContext, s: ClockState): void {
  cli.print(
    s,
    () => `${s.now}  ${s.frozen ? 'frozen' : 'running'}${s.drivable ? '' : ' (cannot be driven)'}`,
  );
}

export const clockCommand = defineCommand({
  name: 'clock',
  summary: "read or drive the emulator's clock: freeze, resume, advance (timers due fire in order)",
  run: async ({ cli }) =>
    show(cli, await operatorCall<ClockState>(cli, 'GET', await operatorPath('clock'))),
  commands: [
    defineCommand({
      name: 'freeze',
      summary: 'stop time: nothing expires until advance or resume',
      run: async ({ cli }) =>
        show(cli, await operatorCall<ClockState>(cli, 'POST', await operatorPath('clockFreeze'))),
    }),
    defineCommand({
      name: 'resume',
      summary: 'let time run again from where it stands',
      run: async ({ cli }) =>
        show(cli, await operatorCall<ClockState>(cli, 'POST', await operatorPath('clockResume'))),
    }),
    defineCommand({
      name: 'advance',
      summary:
        'move time forward, firing every timer that falls due (token expiry, claim windows, reapers, caps)',
      args: {
        duration: {
          usage: '<duration>',
          description: 'how far: 90s, 5m, 2h, 1d, 1500ms (a bare number is seconds)',
        },
      },
      run: async ({ args: { duration }, cli }) =>
        show(
          cli,
          await operatorCall<ClockState>(cli, 'POST', await operatorPath('clockAdvance'), {
            ms: parseDuration(duration),
          }),
        ),
    }),
  ],
});
