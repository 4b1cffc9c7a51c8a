import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import { findModel } from '../catalog.js';
import { jobView, TERMINAL, type JobRow } from '../jobs/store.js';
import type { InferenceServices } from '../services.js';
import { InferenceError, invalid, notFound } from '../shared/errors.js';
import { reply } from '../../../server/binder.js';
import { implementInference } from '../shared/route.js';
import { payloadProblem } from '../tasks/payloads.js';

/** Spec 8: compat-b sync mode blocks up to 120 s; batch status takes at most 50 ids. */
export const SYNC_WAIT_MS = 120_000;
export const BATCH_STATUS_MAX = 50;

/**
 * The slug-based format (spec 4.12 compat-b). A slug is a model's `spec_id` (or its
 * model_id) from GET /api/model-status; the body is that model's task payload, with
 * `task` to choose among several and `sync_mode`. Async answers 202
 * `{ request_id, status, status_url }` (fields after request_id: ours).
 */
export function registerCompatB(app: App, svc: InferenceServices): void {
  const view = (row: JobRow) => {
    const v = jobView(row, svc.jobs.position(row.id));
    return { request_id: row.id, ...v };
  };
  const statusUrl = (id: string) =>
    `${String(svc.ctx.options.baseUrl ?? '')}/compat-b/requests/${id}`;

  implementInference(app, svc, inference.requestsBatch, async ({ body: b, auth: { caller } }) => {
    if (b.request_ids.length > BATCH_STATUS_MAX)
      throw invalid(`request_ids: at most ${BATCH_STATUS_MAX} ids per query`, 'request_ids');
    return {
      data: b.request_ids.map((id) => {
        const row = svc.jobs.get(id);
        return row && row.org_id === caller.orgId
          ? view(row)
          : { request_id: id, status: 'not_found' as const };
      }),
    };
  });

  implementInference(app, svc, inference.request, ({ params, auth: { caller } }) => {
    const row = svc.jobs.get(params.id);
    if (!row || row.org_id !== caller.orgId) throw notFound(`request ${params.id}`);
    return view(row);
  });

  implementInference(
    app,
    svc,
    inference.submit,
    async ({ params, body, auth: { caller, usage } }) => {
      const slug = params.slug;
      const model = findModel(slug);
      if (!model)
        throw new InferenceError(
          404,
          'not_found',
          `no model with slug ${slug} (GET /api/model-status lists them)`,
        );
      const { sync_mode: sync, task: askedTask, ...payload } = body;
      const task = askedTask ?? model.tasks[0];
      if (typeof task !== 'string' || !model.tasks.includes(task as never)) {
        throw invalid(`task: ${model.id} does ${model.tasks.join(', ')}`, 'task');
      }
      const problem = payloadProblem(task, payload, '');
      if (problem) throw invalid(problem.message, problem.param);
      usage.modelId = model.id;
      const row = svc.jobs.submit({
        orgId: caller.orgId,
        keyId: caller.keyId,
        source: 'compat-b',
        modelId: model.id,
        task,
        payload,
      });
      let now: JobRow = row;
      if (sync === true) {
        await svc.jobs.wait(row.id, SYNC_WAIT_MS);
        now = svc.jobs.get(row.id) ?? row;
        // Past 120 s the request turns async: the caller polls like any other (ours).
        if (TERMINAL.includes(now.status)) return view(now);
      }
      return reply(202, { request_id: row.id, status: now.status, status_url: statusUrl(row.id) });
    },
  );
}
