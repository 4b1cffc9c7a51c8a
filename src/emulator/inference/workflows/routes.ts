import { unixSeconds } from '../../clock.js';
import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from '../shared/caller.js';
import { InferenceError, invalid, notFound } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { WorkflowEngine } from './engine.js';
import {
  executionView,
  getExecution,
  workflowView,
  type ExecutionRow,
  type NodeState,
  type WorkflowRow,
} from './store.js';
import { missingInput, validateDag } from './validate.js';
import { workflowSql } from './sql.js';

/**
 * Spec 4.12 workflows: POST /api/workflows `{ name, dag }`, POST /api/workflows/{id}/execute
 * `{ input_params }` -> `{ execution }`. Reading, listing and cancelling executions are
 * ours: GET /api/workflows[/{id}], GET /api/workflows/{id}/executions,
 * GET /api/workflows/executions/{execId}, POST /api/workflows/executions/{execId}/cancel.
 */
export function registerWorkflows(app: App, svc: InferenceServices): void {
  const engine = new WorkflowEngine(svc);
  const db = svc.ctx.db;
  const ownWorkflow = (caller: InferenceCaller, id: string) => {
    const w = workflowSql(db).getWorkflowsById.get(id) as WorkflowRow | undefined;
    if (!w || w.org_id !== caller.orgId) throw notFound(`workflow ${id}`);
    return w;
  };
  const ownExecution = (caller: InferenceCaller, id: string) => {
    const e = getExecution(db, id);
    if (!e || e.org_id !== caller.orgId) throw notFound(`execution ${id}`);
    return e;
  };

  implementInference(app, svc, inference.getExecution, ({ params, auth: { caller } }) => ({
    execution: executionView(ownExecution(caller, params.execId)),
  }));
  implementInference(app, svc, inference.cancelExecution, ({ params, auth: { caller } }) => {
    const e = ownExecution(caller, params.execId);
    if (e.status !== 'pending' && e.status !== 'running') {
      throw new InferenceError(409, 'conflict', `execution ${e.id} already ${e.status}`);
    }
    engine.cancel(e.id);
    return { execution: executionView(getExecution(db, e.id)!) };
  });

  implementInference(app, svc, inference.createWorkflow, async ({ body: b, auth: { caller } }) => {
    const { dag } = validateDag(b.dag);
    const id = svc.ctx.ids.uuid();
    workflowSql(db).insertWorkflows.run(
      id,
      caller.orgId,
      b.name,
      JSON.stringify(dag),
      unixSeconds(svc.ctx.clock),
    );
    return { workflow: workflowView(ownWorkflow(caller, id)) };
  });
  implementInference(app, svc, inference.listWorkflows, ({ auth: { caller } }) => {
    const rows = workflowSql(db).listWorkflowsByOrgId.all(caller.orgId) as WorkflowRow[];
    return { data: rows.map(workflowView) };
  });
  implementInference(app, svc, inference.getWorkflow, ({ params, auth: { caller } }) => ({
    workflow: workflowView(ownWorkflow(caller, params.id)),
  }));
  implementInference(app, svc, inference.listExecutions, ({ params, auth: { caller } }) => {
    const w = ownWorkflow(caller, params.id);
    const rows = workflowSql(db).listWorkflowExecutionsByWorkflowId.all(w.id) as ExecutionRow[];
    return { data: rows.map((r) => executionView(r, false)) };
  });

  implementInference(app, svc, inference.execute, async ({ params, body: b, auth: { caller } }) => {
    const w = ownWorkflow(caller, params.id);
    const { dag, deps } = validateDag(JSON.parse(w.dag));
    const lack = missingInput(dag, b.input_params ?? {});
    if (lack)
      throw invalid(
        `input_params.${lack.name}: required (node ${lack.node} reads \${input.${lack.name}})`,
        `input_params.${lack.name}`,
      );
    const nodes: Record<string, NodeState> = Object.fromEntries(
      Object.keys(dag.nodes).map((k) => [k, { status: 'pending', job_ids: [] }]),
    );
    const id = svc.ctx.ids.uuid();
    workflowSql(db).insertWorkflowExecutions.run(
      id,
      w.id,
      caller.orgId,
      JSON.stringify(b.input_params ?? {}),
      JSON.stringify(nodes),
      unixSeconds(svc.ctx.clock),
    );
    const exec = getExecution(db, id)!;
    engine.start(exec, dag, deps);
    return { execution: executionView(exec, false) };
  });
}
