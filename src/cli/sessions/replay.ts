/**
 * `avatar sessions replay FILE` (issue 18 item 7): play a session saved with
 * `sessions live --save-session` back against this service and report where the
 * transcript differs. The body is in replay-run.ts, loaded only when it runs.
 */
import { defineCommand } from '../define.js';

export const replayCommands = [
  defineCommand({
    name: 'replay',
    summary:
      'Play a session saved by sessions live --save-session back at its recorded cadence; exit 6 where the transcript differs',
    args: { file: '<file>' },
    options: {
      toScript: {
        flags: '--to-script <out>',
        description:
          'do not replay: write a conversation script (YAML when OUT ends .yaml/.yml, else JSON) that makes the emulator answer as this recording did (docs/testing.md "Conversation scripts")',
      },
    },
    configure: (cmd) =>
      cmd.addHelpText(
        'after',
        '\nExamples:\n  $ avatar sessions live --persona ava --mic-file q.wav --save-session talk.json\n  $ avatar sessions replay talk.json --json\n  $ avatar sessions replay talk.json --to-script talk.yaml',
      ),
    async run({ args: { file }, options: opts, cli }) {
      const { runReplay, writeToScript } = await import('./replay-run.js');
      if (opts.toScript !== undefined) await writeToScript(cli, file, opts.toScript);
      else await runReplay(cli, file);
    },
  }),
];
