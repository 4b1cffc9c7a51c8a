import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import { findModel } from '../catalog.js';
import type { InferenceServices } from '../services.js';
import { InferenceError, invalid, notFound } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import type { InferenceCaller } from '../shared/caller.js';
import { jobView } from './store.js';
import { payloadProblem } from '../tasks/payloads.js';

/** A model and task that exist, or 400 naming what does (checked at submission, not in the worker). */
export function checkModelTask(modelId: string, task: string): void {
  const m = findModel(modelId);
  if (!m)
    throw new InferenceError(
      404,
      'not_found',
      `model ${modelId} not found (GET /api/model-status lists them)`,
      { param: 'model_id' },
    );
  if (!m.tasks.includes(task as never))
    throw invalid(`model ${modelId} does not do ${task} (it does ${m.tasks.join(', ')})`, 'task');
}

/** The caller's own job, or 404 (another organisation's jobs do not exist for it). */
export function ownJob(svc: InferenceServices, caller: InferenceCaller, id: string) {
  const row = svc.jobs.get(id);
  if (!row || row.org_id !== caller.orgId) throw notFound(`job ${id}`);
  return row;
}

/** Spec 4.12 Jobs: POST /api/jobs -> { id, queue_id }; GET /api/jobs/{id}; POST /api/jobs/{id}/cancel. */
export function registerJobs(app: App, svc: InferenceServices): void {
  implementInference(
    app,
    svc,
    inference.createJob,
    async ({ body: b, auth: { caller, usage } }) => {
      checkModelTask(b.model_id, b.task);
      const problem = payloadProblem(b.task, b.payload ?? {});
      if (problem) throw invalid(problem.message, problem.param);
      usage.modelId = b.model_id;
      const row = svc.jobs.submit({
        orgId: caller.orgId,
        keyId: caller.keyId,
        source: 'jobs',
        modelId: b.model_id,
        task: b.task,
        payload: b.payload ?? {},
      });
      return { id: row.id, queue_id: row.queue_id };
    },
  );
  implementInference(app, svc, inference.getJob, ({ params, auth: { caller } }) => {
    const row = ownJob(svc, caller, params.id);
    return jobView(row, svc.jobs.position(row.id));
  });
  implementInference(app, svc, inference.cancelJob, ({ params, auth: { caller } }) => {
    const row = ownJob(svc, caller, params.id);
    if (row.status === 'completed' || row.status === 'failed') {
      throw new InferenceError(
        409,
        'conflict',
        `job ${row.id} already ${row.status}; only pending or processing jobs can be cancelled`,
      );
    }
    return jobView(svc.jobs.cancel(row.id)!);
  });
}
