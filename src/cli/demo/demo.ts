/**
 * `avatar demo` (issue 9): a first run that shows everything working: an emulator (the
 * running one, or one started in this process), a persona session, a synthesized question
 * spoken into it as mic audio, the transcript and reply, the reply video saved, timings.
 */
import type { CommandModule } from '../context.js';

const EXAMPLES = `
Examples:
  $ avatar demo                # the running emulator, or one started in-process
  $ avatar demo --persona leo --question "What do you do all day?" --out leo.mp4
  $ avatar demo --in-process --json        # NDJSON events, a throwaway emulator`;

export const demoCommands: CommandModule = {
  register(program, cli) {
    const cmd = program
      .command('demo')
      .description(
        'Talk to a persona once, end to end: speak a synthesized question, show the transcript and reply, save the video',
      )
      .option('--persona <key>', 'stock persona', 'ava')
      .option(
        '--question <text>',
        'what to ask (synthesized to 16 kHz speech and streamed as the mic)',
        'Hello! What can you help me with?',
      )
      .option('--out <file>', 'where to save the video of the conversation', 'demo.mp4')
      .option(
        '--in-process',
        'always start a throwaway in-process emulator, even when one is running',
      )
      .option(
        '--play',
        'also play the reply (default on a terminal when an audio output is installed)',
      )
      .option('--no-play', 'do not play the reply')
      .addHelpText('after', EXAMPLES);
    cmd.action(async () => {
      const { runDemo } = await import('./demo-run.js');
      await runDemo(cli, cmd.opts());
    });
  },
};
