/**
 * `avatar load-test` (issue 18 item 8): N live sessions against the emulator or any base
 * URL, through the client layer; p50/p95/p99 of every step, errors by code, `--slo` rules
 * that set the exit code. The body is in load-test-run.ts, loaded only when it runs.
 */
import type { CommandModule } from '../context.js';
import { addMintOptions } from '../sessions/sessions.js';

const EXAMPLES = `
Examples:
  $ avatar load-test --sessions 50 --ramp 10 --duration 30
  $ avatar load-test --sessions 20 --mic-file q.wav --slo turn.p95=2s,errors=0
  $ avatar load-test --sessions 5 --duration 10 --say "Hello" --json`;

export const loadTestCommands: CommandModule = {
  register(program, cli) {
    const cmd = program
      .command('load-test')
      .description(
        'Run N live sessions at once (mint through the queue, connect, talk in turns) and report p50/p95/p99 of each step',
      )
      .addHelpText('after', EXAMPLES)
      .option('--sessions <n>', 'sessions to run at once', '10')
      .option('--ramp <s>', 'seconds over which the sessions start, evenly spread', '10')
      .option('--duration <s>', 'seconds every session keeps talking after the ramp', '30')
      .option(
        '--mic-file <file>',
        'audio spoken into the mic as each mic turn (any format ffmpeg reads)',
      )
      .option(
        '--say <text>',
        'typed as each typed turn (POST /chat or the v2 chat message); the default when no --mic-file',
      )
      .option(
        '--turns <n>',
        'each session ends after n turns and its user mints the next one (queue waits show); default: hold the seat to the end',
      )
      .option(
        '--protocol <n>',
        'wire protocol: 1 (/mse, /mic_stream, /events) or 2 (/v2/session)',
        '1',
      )
      .option('--lang <tag>', 'language announced on the mic socket', 'en')
      .option(
        '--turn-timeout <s>',
        'a turn unanswered this long counts as error turn_timeout',
        '30',
      )
      .option(
        '--slo <rules>',
        'exit 6 unless every rule holds: e.g. turn.p50=900ms,chat_first_speech.p95=2s,errors=0',
      );
    addMintOptions(cmd);
    cmd.action(async () => {
      const { runLoadTest } = await import('./load-test-run.js');
      await runLoadTest(cli, cmd.opts<Record<string, unknown>>());
    });
  },
};
