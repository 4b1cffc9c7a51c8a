/**
 * `avatar sessions replay FILE` (issue 18 item 7): play a session saved with
 * `sessions live --save-session` back against this service and report where the
 * transcript differs. The body is in replay-run.ts, loaded only when it runs.
 */
import type { Command } from 'commander';
import type { CommandModule } from '../context.js';

export const replayCommands: CommandModule = {
  register(program, cli) {
    const sessions =
      (program.commands.find((c) => c.name() === 'sessions') as Command | undefined) ??
      program.command('sessions');
    sessions
      .command('replay <file>')
      .description(
        'Play a session saved by sessions live --save-session back at its recorded cadence; exit 6 where the transcript differs',
      )
      .addHelpText(
        'after',
        '\nExamples:\n  $ avatar sessions live --persona ava --mic-file q.wav --save-session talk.json\n  $ avatar sessions replay talk.json --json\n  $ avatar sessions replay talk.json --to-script talk.yaml',
      )
      .option(
        '--to-script <out>',
        'do not replay: write a conversation script (YAML when OUT ends .yaml/.yml, else JSON) that makes the emulator answer as this recording did (docs/testing.md "Conversation scripts")',
      )
      .action(async (file: string, opts: { toScript?: string }) => {
        const { runReplay, writeToScript } = await import('./replay-run.js');
        if (opts.toScript !== undefined) await writeToScript(cli, file, opts.toScript);
        else await runReplay(cli, file);
      });
  },
};
