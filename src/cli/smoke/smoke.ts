/**
 * `avatar smoke` (issue 9): the CI check against any deployment or the emulator. Each step
 * prints one line with its time; the first failure names its step and exits non-zero.
 */
import type { CommandModule } from '../context.js';

const EXAMPLES = `
Steps: gallery, mint (through the queue), connect, typed turn, first media,
release, transcript.

Examples:
  $ avatar smoke                            # against the running local emulator
  $ AVATAR_API_KEY=sk_... avatar smoke --base-url https://api.example.com
  $ avatar smoke --json | jq -c 'select(.ok == false)'`;

export const smokeCommands: CommandModule = {
  register(program, cli) {
    const cmd = program
      .command('smoke')
      .description(
        'Check a deployment end to end: gallery, mint, connect, one typed turn, first media, release, transcript',
      )
      .option('--persona <key>', 'stock persona to talk to (default: the first in the gallery)')
      .option('--timeout <s>', 'give up after this many seconds in all', '60')
      .option('--say <text>', 'the typed turn (one every persona answers)', 'Hello, who are you?')
      .addHelpText('after', EXAMPLES);
    cmd.action(async () => {
      const { runSmoke } = await import('./smoke-run.js');
      await runSmoke(cli, cmd.opts());
    });
  },
};
