/** `avatar transcribe FILE`: compat-a audio/transcriptions (spec 4.12). */
import { basename } from 'node:path';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { inference, readFileArg } from './inference-common.js';

const FORMATS = ['text', 'json', 'verbose_json', 'srt', 'vtt'];

export const transcribeCommand = defineCommand({
  name: 'transcribe',
  summary:
    'Transcribe an audio file (any format ffmpeg reads)  [POST /compat-a/v1/audio/transcriptions]',
  args: { file: { usage: '<file>', description: 'audio file' } },
  options: {
    format: {
      flags: '--format <fmt>',
      description: `${FORMATS.join(', ')}`,
      default: 'verbose_json',
    },
    language: { flags: '--language <code>', description: 'spoken language, e.g. en' },
    model: { flags: '--model <id>', description: 'model id', default: 'avatar-asr' },
  },
  async run({ args: { file }, options: o, cli }) {
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
        ? t.segments.map((s) => `[${s.start.toFixed(2)}–${s.end.toFixed(2)}] ${s.text}`).join('\n')
        : t.text || '(no speech recognised)',
    );
  },
});
