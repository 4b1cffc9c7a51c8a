/**
 * `avatar sessions live` (issue 9): mint (through the queue, with `sessions mint`'s
 * display), connect the edge, and talk: microphone, an audio file or typed text in; the
 * avatar's replies played and/or recorded out; the transcript and tool events on screen.
 * On a terminal an ink view; without one a line per event; with --json, NDJSON.
 */
import type { Command } from 'commander';
import type { CommandModule } from '../context.js';
import { addMintOptions } from '../sessions/sessions.js';

const EXAMPLES = `
Examples:
  $ avatar sessions live --persona ava      # talk through the mic, hear replies
  $ avatar sessions live --persona ava --mic-file q.wav --record reply.mp4
  $ avatar sessions live --persona ava --say "Hello there" --turns 1 --json
  $ printf 'Hello\\nWho are you?\\n' | avatar sessions live --persona ava
  $ avatar sessions live --avatar-id <uuid> --protocol 2 --headphones`;

export const liveCommands: CommandModule = {
  register(program, cli) {
    const sessions =
      (program.commands.find((c) => c.name() === 'sessions') as Command | undefined) ??
      program.command('sessions');
    const cmd = sessions
      .command('live')
      .description(
        'Mint a session and talk to the avatar from this terminal: mic, audio file or typed text in; replies played and/or recorded',
      )
      .addHelpText('after', EXAMPLES);
    addMintOptions(cmd);
    cmd
      .option(
        '--protocol <n>',
        'wire protocol: 1 (/mse, /mic_stream, /events) or 2 (/v2/session)',
        '1',
      )
      .option('--mic', 'stream the microphone (default on a terminal when a recorder is installed)')
      .option('--no-mic', 'do not use the microphone')
      .option(
        '--mic-file <file>',
        'stream this audio file as the mic (any format ffmpeg reads), then silence',
      )
      .option(
        '--play',
        'play the replies (default on a terminal when an audio output is installed)',
      )
      .option('--no-play', 'do not play the replies')
      .option('--record <file>', 'write the whole stream (video + audio) to this MP4')
      .option('--headphones', 'never gate the mic while the avatar speaks (no echo to fear)')
      .option(
        '--say <text...>',
        'typed message(s), sent one at a time, each once the avatar has spoken (POST /chat); off a terminal, lines piped to stdin are typed too',
      )
      .option('--turns <n>', 'end the session once the n-th reply has been spoken')
      .option(
        '--save-session <file>',
        'save what the session took and gave (mic audio, typed turns, events) for avatar sessions replay',
      )
      .option(
        '--lang <tag>',
        'language announced on /mic_stream (default: --response-language or en)',
      )
      .action(async () => {
        const { runLive } = await import('./live-run.js');
        await runLive(cli, cmd.opts<Record<string, unknown>>());
      });
  },
};
