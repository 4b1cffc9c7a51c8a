import { unixSeconds } from '../../clock.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from '../shared/caller.js';
import { internalHeaders } from '../shared/internal.js';
import { getFile, saveFile } from './files.js';
import { batchSql } from './sql.js';

export type BatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

export interface BatchRecord {
  id: string;
  org_id: string;
  key_id: string;
  endpoint: string;
  input_file_id: string;
  status: BatchStatus;
  errors: {
    object: 'list';
    data: { code: string; message: string; line: number | null; param: string | null }[];
  } | null;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
}

export const batchView = (r: BatchRecord) => {
  const { org_id: _o, key_id: _k, ...rest } = r;
  return { object: 'batch' as const, completion_window: '24h', expired_at: null, ...rest };
};

interface Line {
  custom_id: string;
  body: Record<string, unknown>;
}

/**
 * Runs batches one line at a time, each line a step on the injected clock, through the app
 * itself (an in-process request to the compat-a route), so a batch answers exactly what
 * direct calls would. Lines do not count against the rate limits (the batch create did).
 */
export class BatchRunner {
  private readonly cancelling = new Set<string>();

  constructor(
    private readonly app: App,
    private readonly svc: InferenceServices,
  ) {
    // A batch cut off by a stop is failed at the next start (its progress was in memory).
    for (const r of this.all().filter((b) =>
      ['validating', 'in_progress', 'finalizing', 'cancelling'].includes(b.status),
    )) {
      this.save({
        ...r,
        status: 'failed',
        failed_at: this.now(),
        errors: {
          object: 'list',
          data: [
            {
              code: 'interrupted',
              message: 'the emulator stopped during this batch',
              line: null,
              param: null,
            },
          ],
        },
      });
    }
  }

  private now(): number {
    return unixSeconds(this.svc.ctx.clock);
  }

  private all(): BatchRecord[] {
    return (batchSql(this.svc.ctx.db).listInferenceBatchesRecord.all() as { record: string }[]).map(
      (r) => JSON.parse(r.record) as BatchRecord,
    );
  }

  list(orgId: string): BatchRecord[] {
    return this.all().filter((r) => r.org_id === orgId);
  }

  get(id: string): BatchRecord | undefined {
    const row = batchSql(this.svc.ctx.db).getInferenceBatchesRecordById.get(id) as
      | { record: string }
      | undefined;
    return row ? (JSON.parse(row.record) as BatchRecord) : undefined;
  }

  private save(r: BatchRecord): BatchRecord {
    batchSql(this.svc.ctx.db).upsertInferenceBatches.run(
      r.id,
      r.org_id,
      JSON.stringify(r),
      r.created_at,
    );
    return r;
  }

  create(
    caller: InferenceCaller,
    inputFileId: string,
    endpoint: string,
    metadata: Record<string, string> | null,
  ): BatchRecord {
    const now = this.now();
    const rec = this.save({
      id: `batch_${this.svc.ctx.ids.hex(12)}`,
      org_id: caller.orgId,
      key_id: caller.keyId,
      endpoint,
      input_file_id: inputFileId,
      status: 'validating',
      errors: null,
      output_file_id: null,
      error_file_id: null,
      created_at: now,
      in_progress_at: null,
      expires_at: now + 86_400,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata,
    });
    this.step(() => this.validate(rec.id, caller));
    return rec;
  }

  cancel(id: string): BatchRecord | undefined {
    const r = this.get(id);
    if (!r) return r;
    this.cancelling.add(id);
    return this.save({ ...r, status: 'cancelling', cancelling_at: this.now() });
  }

  private step(fn: () => void | Promise<void>): void {
    this.svc.ctx.clock.setTimeout(() => {
      void Promise.resolve()
        .then(fn)
        .catch((e: unknown) =>
          this.svc.ctx.log(`batch step failed: ${(e as Error).stack ?? String(e)}`),
        );
    }, 0);
  }

  private validate(id: string, caller: InferenceCaller): void {
    const r = this.get(id)!;
    if (this.cancelling.has(id)) return this.finish(r, [], []);
    const file = getFile(this.svc, r.org_id, r.input_file_id);
    const errors: NonNullable<BatchRecord['errors']>['data'] = [];
    const lines: Line[] = [];
    const seen = new Set<string>();
    const text = file ? file.bytes.toString('utf8') : '';
    if (!file)
      errors.push({
        code: 'file_not_found',
        message: `input file ${r.input_file_id} was deleted`,
        line: null,
        param: 'input_file_id',
      });
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      const line = i + 1;
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return errors.push({
          code: 'invalid_json_line',
          message: `line ${line} is not JSON`,
          line,
          param: null,
        });
      }
      if (typeof v.custom_id !== 'string' || v.custom_id === '')
        return errors.push({
          code: 'missing_required_parameter',
          message: 'custom_id: required',
          line,
          param: 'custom_id',
        });
      if (seen.has(v.custom_id))
        return errors.push({
          code: 'duplicate_custom_id',
          message: `custom_id ${v.custom_id} appears twice`,
          line,
          param: 'custom_id',
        });
      seen.add(v.custom_id);
      if (v.method !== 'POST')
        return errors.push({
          code: 'invalid_method',
          message: 'method: POST',
          line,
          param: 'method',
        });
      if (v.url !== r.endpoint)
        return errors.push({
          code: 'mismatched_url',
          message: `url must be the batch endpoint ${r.endpoint}`,
          line,
          param: 'url',
        });
      if (!v.body || typeof v.body !== 'object' || Array.isArray(v.body))
        return errors.push({
          code: 'invalid_body',
          message: 'body: an object',
          line,
          param: 'body',
        });
      lines.push({ custom_id: v.custom_id, body: v.body as Record<string, unknown> });
    });
    if (!errors.length && lines.length === 0)
      errors.push({
        code: 'empty_file',
        message: 'the input file has no requests',
        line: null,
        param: null,
      });
    if (errors.length) {
      this.save({
        ...r,
        status: 'failed',
        failed_at: this.now(),
        errors: { object: 'list', data: errors },
      });
      return;
    }
    this.save({
      ...r,
      status: 'in_progress',
      in_progress_at: this.now(),
      request_counts: { total: lines.length, completed: 0, failed: 0 },
    });
    const out: string[] = [];
    const err: string[] = [];
    const next = (i: number) => this.step(() => this.runLine(id, caller, lines, i, out, err, next));
    next(0);
  }

  private async runLine(
    id: string,
    caller: InferenceCaller,
    lines: Line[],
    i: number,
    out: string[],
    err: string[],
    next: (i: number) => void,
  ): Promise<void> {
    const r = this.get(id)!;
    if (this.cancelling.has(id) || i >= lines.length) return this.finish(r, out, err);
    const line = lines[i]!;
    const res = await this.app.request('/compat-a' + r.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...internalHeaders(this.svc, caller) },
      body: JSON.stringify(line.body),
    });
    const type = res.headers.get('content-type') ?? '';
    const bytes = Buffer.from(await res.arrayBuffer());
    // Binary answers (speech) travel base64-encoded in the output line (ours).
    const body = type.includes('json')
      ? (JSON.parse(bytes.toString('utf8')) as unknown)
      : { content_type: type, b64: bytes.toString('base64') };
    const entry = {
      id: `batch_req_${this.svc.ctx.ids.hex(12)}`,
      custom_id: line.custom_id,
      response: { status_code: res.status, request_id: `req_${this.svc.ctx.ids.hex(12)}`, body },
      error: null,
    };
    (res.status < 400 ? out : err).push(JSON.stringify(entry));
    const counts = {
      ...r.request_counts,
      [res.status < 400 ? 'completed' : 'failed']:
        r.request_counts[res.status < 400 ? 'completed' : 'failed'] + 1,
    };
    this.save({ ...r, request_counts: counts });
    next(i + 1);
  }

  private finish(r: BatchRecord, out: string[], err: string[]): void {
    const cancelled = this.cancelling.delete(r.id);
    const now = this.now();
    let rec: BatchRecord = cancelled
      ? r
      : this.save({ ...r, status: 'finalizing', finalizing_at: now });
    const file = (lines: string[], kind: string) =>
      lines.length
        ? saveFile(
            this.svc,
            r.org_id,
            `${r.id}_${kind}.jsonl`,
            'batch_output',
            Buffer.from(lines.join('\n') + '\n'),
          ).id
        : null;
    rec = { ...rec, output_file_id: file(out, 'output'), error_file_id: file(err, 'error') };
    this.save(
      cancelled
        ? { ...rec, status: 'cancelled', cancelled_at: now }
        : { ...rec, status: 'completed', completed_at: now },
    );
  }
}
