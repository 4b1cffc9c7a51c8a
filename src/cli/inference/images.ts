/** `avatar images generate PROMPT -o FILE`: compat-a images/generations (spec 4.12). */
import { extname } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { group, inference, positiveInt, writeFileArg } from './inference-common.js';

export const imagesCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    group(program, 'images', 'image generation')
      .command('generate')
      .description('Generate PNG images from a prompt  [POST /compat-a/v1/images/generations]')
      .argument('<prompt...>', 'what to draw')
      .requiredOption(
        '-o, --out <file>',
        'PNG to write (with --n, name-2.png, name-3.png... follow)',
      )
      .option('--size <WxH>', 'image size', '1024x1024')
      .option('--n <count>', 'how many images', '1')
      .option('--model <id>', 'model id', 'avatar-image')
      .action(
        async (words: string[], o: { out: string; size: string; n: string; model: string }) => {
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
          cli.print({ files, size: o.size }, () =>
            files.map((f) => `wrote ${f} (${o.size})`).join('\n'),
          );
        },
      );
  },
};
