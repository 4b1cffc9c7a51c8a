import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from '../shared/caller.js';
import { InferenceError, invalid, notFound } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { BatchRunner, batchView, type BatchRecord } from './batch-runner.js';
import { getFile } from './files.js';

export const BATCH_ENDPOINTS = [
  '/v1/chat/completions',
  '/v1/embeddings',
  '/v1/rerank',
  '/v1/score',
  '/v1/images/generations',
  '/v1/audio/speech',
];

/**
 * Spec 4.12 /compat-a/v1/batches (payload not shown): OpenAI's Batch API. The input is a
 * JSONL file of `{ custom_id, method: POST, url, body }` lines; each line is answered by the
 * same compat-a route a direct call would reach (same local models, same output), into an
 * output file (`{ id, custom_id, response: { status_code, request_id, body }, error: null }`)
 * and an error file for lines that failed. Statuses: validating, failed, in_progress,
 * finalizing, completed, cancelling, cancelled (expired never happens locally).
 */
export function registerBatches(app: App, svc: InferenceServices): void {
  const runner = new BatchRunner(app, svc);
  const own = (caller: InferenceCaller, id: string): BatchRecord => {
    const rec = runner.get(id);
    if (!rec || rec.org_id !== caller.orgId) throw notFound(`batch ${id}`);
    return rec;
  };
  implementInference(app, svc, inference.createBatch, async ({ body: b, auth: { caller } }) => {
    if (!BATCH_ENDPOINTS.includes(b.endpoint))
      throw invalid(`endpoint: one of ${BATCH_ENDPOINTS.join(', ')}`, 'endpoint');
    const file = getFile(svc, caller.orgId, b.input_file_id);
    if (!file)
      throw new InferenceError(404, 'not_found', `file ${b.input_file_id} not found`, {
        param: 'input_file_id',
      });
    if (file.purpose !== 'batch')
      throw invalid(
        `input_file_id: file ${file.id} has purpose ${file.purpose}, not batch`,
        'input_file_id',
      );
    return batchView(runner.create(caller, b.input_file_id, b.endpoint, b.metadata ?? null));
  });
  implementInference(app, svc, inference.listBatches, ({ c, auth: { caller } }) => {
    const limit = Math.min(100, Math.max(1, Number(c.req.query('limit') ?? 20) || 20));
    const all = runner.list(caller.orgId);
    const after = c.req.query('after');
    const rest = after ? all.slice(all.findIndex((r) => r.id === after) + 1) : all;
    const page = rest.slice(0, limit);
    return {
      object: 'list' as const,
      data: page.map(batchView),
      has_more: rest.length > page.length,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    };
  });
  implementInference(app, svc, inference.getBatch, ({ params, auth: { caller } }) =>
    batchView(own(caller, params.id)),
  );
  implementInference(app, svc, inference.cancelBatch, ({ params, auth: { caller } }) => {
    const rec = own(caller, params.id);
    if (!['validating', 'in_progress', 'finalizing'].includes(rec.status)) {
      throw new InferenceError(
        409,
        'conflict',
        `batch ${rec.id} is ${rec.status}; only a running batch can be cancelled`,
      );
    }
    return batchView(runner.cancel(rec.id)!);
  });
}
