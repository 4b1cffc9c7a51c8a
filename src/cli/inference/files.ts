/** `avatar files upload|list|get|content|delete`: compat-a files (spec 4.12). */
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { CliContext, CommandModule } from '../context.js';
import { renderTable } from '../output.js';
import { group, inference, readFileArg, termWidth, writeFileArg } from './inference-common.js';

const row = (f: Record<string, any>) => ({
  id: f.id,
  filename: f.filename,
  bytes: f.bytes,
  purpose: f.purpose,
  created: new Date(Number(f.created_at) * 1000).toISOString().slice(0, 16).replace('T', ' '),
});

export const filesCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const files = group(
      program,
      'files',
      'files for batches and other inference uses  [/compat-a/v1/files]',
    );
    files
      .command('upload')
      .description('Upload a file (a batch input is JSONL)')
      .argument('<file>', 'file to upload')
      .option('--purpose <purpose>', 'batch, user_data, vision, ...', 'batch')
      .action(async (file: string, o: { purpose: string }) =>
        cli.print(
          await inference(cli).uploadFile(readFileArg(cli, file), basename(file), o.purpose),
        ),
      );
    files
      .command('list')
      .description('List files')
      .action(async () => {
        const r = await inference(cli).files();
        cli.print(r, () =>
          r.data.length ? renderTable(r.data.map(row), undefined, termWidth(cli)) : '(no files)',
        );
      });
    files
      .command('get')
      .argument('<id>')
      .description('Show a file')
      .action(async (id: string) => cli.print(await inference(cli).file(id)));
    files
      .command('content')
      .argument('<id>')
      .option('-o, --out <file>', 'write to a file instead of stdout')
      .description("Print or save a file's content")
      .action(async (id: string, o: { out?: string }) => {
        const body = await inference(cli).fileContent(id);
        const bytes = Buffer.isBuffer(body)
          ? body
          : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
        if (o.out) cli.note(`wrote ${writeFileArg(cli, o.out, bytes)}`);
        else cli.io.stdout.write(bytes);
      });
    files
      .command('delete')
      .argument('<id>')
      .description('Delete a file')
      .action(async (id: string) => cli.print(await inference(cli).deleteFile(id)));
  },
};
