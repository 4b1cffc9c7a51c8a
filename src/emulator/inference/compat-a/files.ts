import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from '../shared/caller.js';
import { invalid, notFound } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { formFile, formString, readForm } from './multipart.js';
import { batchSql } from './sql.js';

/**
 * Spec 4.12 /compat-a/v1/files (payload not shown): OpenAI's Files API. Upload is a
 * multipart form `file` + `purpose`; a file is `{ id: file-<hex>, object: file, bytes,
 * created_at, filename, purpose, status: processed }`. List, get, content, delete.
 */
const PURPOSES = [
  'batch',
  'batch_output',
  'assistants',
  'fine-tune',
  'vision',
  'user_data',
  'evals',
];

export interface FileRow {
  id: string;
  org_id: string;
  filename: string;
  purpose: string;
  bytes: Buffer;
  size: number;
  status: string;
  created_at: number;
}

export const fileView = (f: Omit<FileRow, 'bytes'>) => ({
  id: f.id,
  object: 'file' as const,
  bytes: f.size,
  created_at: f.created_at,
  filename: f.filename,
  purpose: f.purpose,
  status: f.status,
  status_details: null,
  expires_at: null,
});

export function saveFile(
  svc: InferenceServices,
  orgId: string,
  filename: string,
  purpose: string,
  bytes: Uint8Array,
): FileRow {
  const id = `file-${svc.ctx.ids.hex(12)}`;
  batchSql(svc.ctx.db).insertInferenceFiles.run(
    id,
    orgId,
    filename,
    purpose,
    Buffer.from(bytes),
    bytes.length,
    Math.floor(svc.ctx.clock.now() / 1000),
  );
  return getFile(svc, orgId, id)!;
}

export function getFile(svc: InferenceServices, orgId: string, id: string): FileRow | undefined {
  const row = batchSql(svc.ctx.db).getInferenceFilesById.get(id) as FileRow | undefined;
  return row && row.org_id === orgId ? row : undefined;
}

export function registerFiles(app: App, svc: InferenceServices): void {
  const own = (caller: InferenceCaller, id: string) => {
    const f = getFile(svc, caller.orgId, id);
    if (!f) throw notFound(`file ${id}`);
    return f;
  };
  implementInference(app, svc, inference.uploadFile, async ({ c, raw, auth: { caller } }) => {
    const form = await readForm(c, raw, inference.FILE_UPLOAD_BODY_BYTES);
    const purpose = formString(form, 'purpose');
    if (!purpose || !PURPOSES.includes(purpose))
      throw invalid(`purpose: one of ${PURPOSES.join(', ')}`, 'purpose');
    const file = await formFile(form, 'file');
    if (!file) throw invalid('file: required', 'file');
    if (file.bytes.length === 0) throw invalid('file: is empty', 'file');
    return fileView(saveFile(svc, caller.orgId, file.name || 'upload', purpose, file.bytes));
  });
  implementInference(app, svc, inference.listFiles, ({ c, auth: { caller } }) => {
    const purpose = c.req.query('purpose');
    const limit = Math.min(10_000, Math.max(1, Number(c.req.query('limit') ?? 10_000) || 10_000));
    const sql = batchSql(svc.ctx.db);
    const after = c.req.query('after');
    let rows = (
      c.req.query('order') === 'asc' ? sql.listFilesOldestFirst : sql.listFilesNewestFirst
    ).all({
      org: caller.orgId,
      purpose: purpose ?? null,
    }) as Omit<FileRow, 'bytes'>[];
    if (after) rows = rows.slice(rows.findIndex((r) => r.id === after) + 1);
    const page = rows.slice(0, limit);
    return {
      object: 'list' as const,
      data: page.map(fileView),
      has_more: rows.length > page.length,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    };
  });
  implementInference(app, svc, inference.getFile, ({ params, auth: { caller } }) =>
    fileView(own(caller, params.id)),
  );
  implementInference(app, svc, inference.fileContent, ({ params, auth: { caller } }) => {
    const f = own(caller, params.id);
    return new Response(new Uint8Array(f.bytes), {
      headers: {
        'content-type': f.filename.endsWith('.jsonl')
          ? 'application/jsonl'
          : 'application/octet-stream',
        'content-length': String(f.size),
      },
    });
  });
  implementInference(app, svc, inference.deleteFile, ({ params, auth: { caller } }) => {
    const f = own(caller, params.id);
    batchSql(svc.ctx.db).deleteInferenceFilesById.run(f.id);
    return { id: f.id, object: 'file' as const, deleted: true as const };
  });
}
