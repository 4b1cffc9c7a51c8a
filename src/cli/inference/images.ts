/** `avatar images generate PROMPT -o FILE`: compat-a images/generations (spec 4.12). */
import { extname } from 'node:path';
import { defineCommand } from '../define.js';
import { inference, positiveInt, writeFileArg } from './inference-common.js';

export const imagesGenerateCommand = defineCommand({
  name: 'generate',
  summary: 'Generate PNG images from a prompt  [POST /compat-a/v1/images/generations]',
  args: { words: { usage: '<prompt...>', description: 'what to draw' } },
  options: {
    out: {
      flags: '-o, --out <file>',
      description: 'PNG to write (with --n, name-2.png, name-3.png... follow)',
      required: true,
    },
    size: { flags: '--size <WxH>', description: 'image size', default: '1024x1024' },
    n: { flags: '--n <count>', description: 'how many images', default: '1' },
    model: { flags: '--model <id>', description: 'model id', default: 'avatar-image' },
  },
  async run({ args: { words }, options: o, cli }) {
    const n = positiveInt(o.n, '--n');
    const r = await inference(cli).imagesGenerate({
      model: o.model,
      prompt: words.join(' '),
      size: o.size,
      n,
      response_format: 'b64_json',
    });
    const ext = extname(o.out) || '.png';
    const stem = o.out.slice(0, o.out.length - extname(o.out).length);
    const files = (r.data as { b64_json: string }[]).map((d, i) =>
      writeFileArg(
        cli,
        i === 0 ? `${stem}${ext}` : `${stem}-${i + 1}${ext}`,
        Buffer.from(d.b64_json, 'base64'),
      ),
    );
    cli.print({ files, size: o.size }, () => files.map((f) => `wrote ${f} (${o.size})`).join('\n'));
  },
});
