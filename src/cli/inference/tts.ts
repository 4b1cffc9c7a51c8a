/** `avatar tts TEXT -o FILE`: compat-a audio/speech (spec 4.12); the format follows the file name. */
import { extname } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { inference, writeFileArg } from './inference-common.js';

const FORMATS = ['wav', 'mp3', 'opus', 'flac', 'aac', 'pcm'];

export const ttsCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    program
      .command('tts')
      .description(
        'Speak text into an audio file (wav, mp3, opus, flac, aac, pcm)  [POST /compat-a/v1/audio/speech]',
      )
      .argument('<text...>', 'what to say')
      .requiredOption('-o, --out <file>', 'audio file to write; its extension picks the format')
      .option('--voice <id>', 'a voice of GET /api/voice/models, or an OpenAI voice name', 'alloy')
      .option('--format <fmt>', `one of ${FORMATS.join(', ')} (default: from --out, else mp3)`)
      .option('--speed <x>', 'speaking rate, 0.25 to 4')
      .option('--model <id>', 'model id', 'avatar-tts')
      .action(
        async (
          words: string[],
          o: { out: string; voice: string; format?: string; speed?: string; model: string },
        ) => {
          const ext = extname(o.out).slice(1).toLowerCase();
          const format = o.format ?? (FORMATS.includes(ext) ? ext : ext === 'ogg' ? 'opus' : 'mp3');
          if (!FORMATS.includes(format))
            throw new CliError(`--format must be one of ${FORMATS.join(', ')}`, ExitCode.usage);
          const speed = o.speed === undefined ? undefined : Number(o.speed);
          if (speed !== undefined && !(speed >= 0.25 && speed <= 4))
            throw new CliError('--speed must be from 0.25 to 4', ExitCode.usage);
          const audio = await inference(cli).speech({
            model: o.model,
            input: words.join(' '),
            voice: o.voice,
            response_format: format,
            ...(speed ? { speed } : {}),
          });
          const path = writeFileArg(cli, o.out, audio);
          cli.print(
            { file: path, format, bytes: audio.length },
            () => `wrote ${path} (${format}, ${audio.length} bytes)`,
          );
        },
      );
  },
};
