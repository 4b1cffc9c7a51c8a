import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';

/** `avatar load-test` (issue 18 item 8, first part; docs/testing.md "Load test"). */
const int = (flag: string, min: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new CliError(`${flag} must be an integer of at least ${min} (got ${v})`, ExitCode.usage);
  return n;
};

export const loadTestCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const cmd = program
      .command('load-test')
      .description('N live sessions against the emulator or any base URL: mint (through the queue), connect, first media, a typed turn; p50/p95/p99')
      .option('--sessions <n>', 'sessions to run', int('--sessions', 1), 10)
      .option('--ramp <s>', 'seconds over which the sessions start', int('--ramp', 0), 5)
      .option('--duration <s>', 'seconds each session stays connected', int('--duration', 0), 10)
      .option('--persona <key>', 'stock persona to mint', 'ava')
      .option('--say <text>', 'type this once each session has media, and time /chat -> first speech')
      .option('--slo <list>', 'exit 1 when breached: "metric.p95<ms,...", quoted in a shell (mint_ms, queue_wait_ms, connect_ms, first_media_ms, chat_to_speech_ms)');
    cmd.action(async () => {
      const o = cmd.opts<{ sessions: number; ramp: number; duration: number; persona: string; say?: string; slo?: string }>();
      const { runLoad, sloBreaches } = await import('../load-test-run.js');
      const tty = cli.io.stderr.isTTY && !cli.globals().json;
      const report = await runLoad(cli.client(), {
        sessions: o.sessions,
        rampS: o.ramp,
        durationS: o.duration,
        persona: o.persona,
        say: o.say,
        onSession: tty ? (d, n) => cli.io.stderr.write(`\r${d}/${n} sessions done`) : undefined,
      });
      if (tty) cli.io.stderr.write('\n');
      cli.print(report, () =>
        [
          `${report.completed}/${report.sessions} sessions completed, ${report.queued} queued`,
          ...Object.entries(report.metrics).map(([k, m]) => `  ${k.padEnd(18)} n=${String(m.count).padEnd(4)} p50 ${m.p50 ?? '-'}  p95 ${m.p95 ?? '-'}  p99 ${m.p99 ?? '-'}`),
          `  errors             ${Object.keys(report.errors).length ? JSON.stringify(report.errors) : 'none'}`,
        ].join('\n'),
      );
      if (o.slo) {
        let breaches: string[];
        try {
          breaches = sloBreaches(report, o.slo);
        } catch (e) {
          throw new CliError((e as Error).message, ExitCode.usage);
        }
        if (breaches.length) throw new CliError(`SLO breached: ${breaches.join('; ')}`, ExitCode.internal);
      }
    });
  },
};
