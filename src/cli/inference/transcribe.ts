/** `avatar transcribe FILE`: compat-a audio/transcriptions (spec 4.12). */
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { inference, readFileArg } from './inference-common.js';

const FORMATS = ['text', 'json', 'verbose_json', 'srt', 'vtt'];

export const transcribeCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    program
      .command('transcribe')
      .description(
        'Transcribe an audio file (any format ffmpeg reads)  [POST /compat-a/v1/audio/transcriptions]',
      )
      .argument('<file>', 'audio file')
      .option('--format <fmt>', `${FORMATS.join(', ')}`, 'verbose_json')
      .option('--language <code>', 'spoken language, e.g. en')
      .option('--model <id>', 'model id', 'avatar-asr')
      .action(async (file: string, o: { format: string; language?: string; model: string }) => {
        if (!FORMATS.includes(o.format))
          throw new CliError(`--format must be one of ${FORMATS.join(', ')}`, ExitCode.usage);
        const bytes = readFileArg(cli, file);
        const r = await inference(cli).transcribe(
          { bytes, filename: basename(file) },
          { model: o.model, response_format: o.format, language: o.language },
        );
        if (typeof r !== 'object' || Buffer.isBuffer(r)) {
          cli.io.stdout.write(Buffer.isBuffer(r) ? r.toString('utf8') : String(r));
          return;
        }
        const t = r as {
          text: string;
          segments?: { start: number; end: number; text: string }[];
          duration?: number;
        };
        cli.print(t, () =>
          t.segments?.length
            ? t.segments
                .map((s) => `[${s.start.toFixed(2)}–${s.end.toFixed(2)}] ${s.text}`)
                .join('\n')
            : t.text || '(no speech recognised)',
        );
      });
  },
};
