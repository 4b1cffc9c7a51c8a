/** `avatar tts TEXT -o FILE`: compat-a audio/speech (spec 4.12); the format follows the file name. */
import { extname } from 'node:path';
import { defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { inference, writeFileArg } from './inference-common.js';
import type { BodyOf } from '../../client/inference.js';
import type { speech } from '../../contract/operations/inference.js';

type Format = NonNullable<BodyOf<typeof speech>['response_format']>;

const FORMATS: readonly Format[] = ['wav', 'mp3', 'opus', 'flac', 'aac', 'pcm'];
const isFormat = (f: string): f is Format => (FORMATS as readonly string[]).includes(f);

export const ttsCommand = defineCommand({
  name: 'tts',
  summary:
    'Speak text into an audio file (wav, mp3, opus, flac, aac, pcm)  [POST /compat-a/v1/audio/speech]',
  args: { words: { usage: '<text...>', description: 'what to say' } },
  options: {
    out: {
      flags: '-o, --out <file>',
      description: 'audio file to write; its extension picks the format',
      required: true,
    },
    voice: {
      flags: '--voice <id>',
      description: 'a voice of GET /api/voice/models, or an OpenAI voice name',
      default: 'alloy',
    },
    format: {
      flags: '--format <fmt>',
      description: `one of ${FORMATS.join(', ')} (default: from --out, else mp3)`,
    },
    speed: { flags: '--speed <x>', description: 'speaking rate, 0.25 to 4' },
    model: { flags: '--model <id>', description: 'model id', default: 'avatar-tts' },
  },
  async run({ args: { words }, options: o, cli }) {
    const ext = extname(o.out).slice(1).toLowerCase();
    const format = o.format ?? (isFormat(ext) ? ext : ext === 'ogg' ? 'opus' : 'mp3');
    if (!isFormat(format))
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
});
