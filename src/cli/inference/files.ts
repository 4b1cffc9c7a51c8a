/** `avatar files upload|list|get|content|delete`: compat-a files (spec 4.12). */
import { basename } from 'node:path';
import type { InferenceClient } from '../../client/inference.js';
import { defineCommand } from '../define.js';
import { renderTable } from '../output.js';
import { inference, readFileArg, termWidth, writeFileArg } from './inference-common.js';

/** A file as the contract types it (GET /v1/files/{id}). */
type FileObject = Awaited<ReturnType<InferenceClient['file']>>;

const row = (f: FileObject) => ({
  id: f.id,
  filename: f.filename,
  bytes: f.bytes,
  purpose: f.purpose,
  created: new Date(Number(f.created_at) * 1000).toISOString().slice(0, 16).replace('T', ' '),
});

export const filesCommands = [
  defineCommand({
    name: 'upload',
    summary: 'Upload a file (a batch input is JSONL)',
    args: { file: { usage: '<file>', description: 'file to upload' } },
    options: {
      purpose: {
        flags: '--purpose <purpose>',
        description: 'batch, user_data, vision, ...',
        default: 'batch',
      },
    },
    run: async ({ args: { file }, options: o, cli }) =>
      cli.print(await inference(cli).uploadFile(readFileArg(cli, file), basename(file), o.purpose)),
  }),
  defineCommand({
    name: 'list',
    summary: 'List files',
    async run({ cli }) {
      const r = await inference(cli).files();
      cli.print(r, () =>
        r.data.length ? renderTable(r.data.map(row), undefined, termWidth(cli)) : '(no files)',
      );
    },
  }),
  defineCommand({
    name: 'get',
    summary: 'Show a file',
    args: { id: '<id>' },
    run: async ({ args: { id }, cli }) => cli.print(await inference(cli).file(id)),
  }),
  defineCommand({
    name: 'content',
    summary: "Print or save a file's content",
    args: { id: '<id>' },
    options: {
      out: { flags: '-o, --out <file>', description: 'write to a file instead of stdout' },
    },
    async run({ args: { id }, options: o, cli }) {
      const body = await inference(cli).fileContent(id);
      const bytes = Buffer.isBuffer(body)
        ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
      if (o.out) cli.note(`wrote ${writeFileArg(cli, o.out, bytes)}`);
      else cli.io.stdout.write(bytes);
    },
  }),
  defineCommand({
    name: 'delete',
    summary: 'Delete a file',
    args: { id: '<id>' },
    run: async ({ args: { id }, cli }) => cli.print(await inference(cli).deleteFile(id)),
  }),
];
