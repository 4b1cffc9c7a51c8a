import { unixSeconds } from '../../clock.js';
import type { JobRow } from '../jobs/store.js';
import { TERMINAL } from '../jobs/store.js';
import type { InferenceServices } from '../services.js';
import type { ExecutionRow, ExecutionStatus, NodeState } from './store.js';
import { render, TemplateError, type Scope } from './template.js';
import type { Dag, MapNode, TaskNode } from './validate.js';
import { workflowSql } from './sql.js';

/** Default parallel sub-jobs of a map node without `max_concurrency` (ours). */
export const DEFAULT_MAP_CONCURRENCY = 4;

interface Run {
  exec: ExecutionRow;
  dag: Dag;
  deps: Record<string, string[]>;
  nodes: Record<string, NodeState>;
  input: Record<string, unknown>;
  status: ExecutionStatus;
}

/**
 * Runs workflow executions (spec 4.12): a node starts once every node it depends on has
 * completed; its payload is rendered from the inputs and earlier results, and it runs as a
 * job in the same worker pool as POST /api/jobs. A map node runs one sub-job per item, at
 * most `max_concurrency` at a time, and fails once more than `tolerance` of its items
 * failed. A failed node fails the execution: running nodes are cancelled, the rest skipped.
 */
export class WorkflowEngine {
  private readonly runs = new Map<string, Run>();
  private readonly waiters = new Map<string, (row: JobRow) => void>();

  constructor(private readonly svc: InferenceServices) {
    svc.jobs.onChange((row) => {
      if (!TERMINAL.includes(row.status)) return;
      const fn = this.waiters.get(row.id);
      if (fn) {
        this.waiters.delete(row.id);
        fn(row);
      }
    });
    // Executions cut off by a stop cannot be resumed faithfully (their in-memory state is gone).
    workflowSql(svc.ctx.db).failUnfinishedExecutions.run(
      JSON.stringify({
        code: 'interrupted',
        message: 'the emulator stopped during this execution',
      }),
      unixSeconds(svc.ctx.clock),
    );
  }

  start(exec: ExecutionRow, dag: Dag, deps: Record<string, string[]>): void {
    const run: Run = {
      exec,
      dag,
      deps,
      nodes: JSON.parse(exec.nodes) as Record<string, NodeState>,
      input: JSON.parse(exec.input_params) as Record<string, unknown>,
      status: 'pending',
    };
    this.runs.set(exec.id, run);
    this.svc.ctx.clock.setTimeout(() => {
      if (run.status !== 'pending') return;
      run.status = 'running';
      this.save(run, { started: true });
      this.advance(run);
    }, 0);
  }

  cancel(id: string): boolean {
    const run = this.runs.get(id);
    if (!run) return false;
    this.end(run, 'cancelled', { code: 'cancelled', message: 'cancelled by request' });
    return true;
  }

  private now(): number {
    return unixSeconds(this.svc.ctx.clock);
  }

  private scope(run: Run): Scope {
    // fromEntries defines own keys: a node named `__proto__` stays a node.
    const nodes: Scope['nodes'] = Object.fromEntries(
      Object.entries(run.nodes)
        .filter(([, s]) => s.status === 'completed')
        .map(([k, s]) => [k, { result: s.result }]),
    );
    return { input: run.input, nodes };
  }

  private advance(run: Run): void {
    if (run.status !== 'running') return;
    const states = Object.values(run.nodes);
    if (states.every((s) => s.status === 'completed')) return this.end(run, 'completed', null);
    for (const [key, state] of Object.entries(run.nodes)) {
      if (state.status !== 'pending') continue;
      if (!run.deps[key]!.every((d) => run.nodes[d]!.status === 'completed')) continue;
      state.status = 'running';
      state.started_at = this.now();
      const node = run.dag.nodes[key]!;
      if (node.type === 'map') this.startMap(run, key, node);
      else this.startTask(run, key, node);
      if (run.status !== 'running') return;
    }
    this.save(run);
  }

  private submit(
    run: Run,
    modelId: string,
    task: string,
    payload: unknown,
    done: (row: JobRow) => void,
  ): string {
    const row = this.svc.jobs.submit({
      orgId: run.exec.org_id,
      keyId: 'workflow',
      source: 'workflow',
      modelId,
      task,
      payload,
    });
    this.waiters.set(row.id, done);
    return row.id;
  }

  private startTask(run: Run, key: string, node: TaskNode): void {
    const state = run.nodes[key]!;
    let payload: unknown;
    try {
      payload = render(node.payload ?? node.inputs ?? {}, this.scope(run));
    } catch (e) {
      return this.failNode(run, key, {
        code: 'template_error',
        message: (e as TemplateError).message,
      });
    }
    state.job_ids = [
      this.submit(run, node.model_id, node.task, payload, (row) => {
        if (run.status !== 'running' || state.status !== 'running') return;
        if (row.status !== 'completed') return this.failNode(run, key, jobError(row));
        let result = row.result === null ? null : (JSON.parse(row.result) as unknown);
        if (node.outputs?.length) {
          const r = (result ?? {}) as Record<string, unknown>;
          const missing = node.outputs.find((o) => !Object.hasOwn(r, o));
          if (missing)
            return this.failNode(run, key, {
              code: 'missing_output',
              message: `result has no output ${missing}`,
            });
          result = Object.fromEntries(node.outputs.map((o) => [o, r[o]]));
        }
        state.status = 'completed';
        state.result = result;
        state.completed_at = this.now();
        this.advance(run);
      }),
    ];
  }

  private startMap(run: Run, key: string, node: MapNode): void {
    const state = run.nodes[key]!;
    let items: unknown;
    try {
      items = render(node.items, this.scope(run));
    } catch (e) {
      return this.failNode(run, key, {
        code: 'template_error',
        message: (e as TemplateError).message,
      });
    }
    if (!Array.isArray(items))
      return this.failNode(run, key, {
        code: 'template_error',
        message: `items ${node.items} is not an array`,
      });
    const total = items.length;
    const allowed = Math.floor((node.tolerance ?? 0) * total + 1e-9);
    const results: unknown[] = new Array(total).fill(null);
    const itemErrors: { index: number; code: string; message: string }[] = [];
    const progress = (state.progress = { total, completed: 0, failed: 0 });
    const limit = node.max_concurrency ?? DEFAULT_MAP_CONCURRENCY;
    let next = 0;
    let inFlight = 0;
    const launch = () => {
      while (
        inFlight < limit &&
        next < total &&
        state.status === 'running' &&
        run.status === 'running'
      ) {
        const index = next++;
        let payload: unknown;
        try {
          payload = render(node.node.payload, {
            ...this.scope(run),
            item: items[index],
            hasItem: true,
          });
        } catch (e) {
          onDone(index, { code: 'template_error', message: (e as Error).message }, null);
          continue;
        }
        inFlight++;
        state.job_ids.push(
          this.submit(run, node.node.model_id, node.node.task, payload, (row) => {
            inFlight--;
            if (row.status === 'completed')
              onDone(index, null, row.result === null ? null : JSON.parse(row.result));
            else onDone(index, jobError(row), null);
          }),
        );
      }
      if (progress.completed + progress.failed === total && state.status === 'running') {
        state.status = 'completed';
        state.result = results;
        if (itemErrors.length)
          state.error = {
            code: 'partial_failure',
            message: `${progress.failed} of ${total} items failed (tolerance ${node.tolerance ?? 0})`,
            item_errors: itemErrors,
          };
        state.completed_at = this.now();
        this.advance(run);
      } else this.save(run);
    };
    const onDone = (
      index: number,
      err: { code: string; message: string } | null,
      result: unknown,
    ) => {
      if (run.status !== 'running' || state.status !== 'running') return;
      if (err) {
        progress.failed++;
        itemErrors.push({ index, ...err });
        if (progress.failed > allowed) {
          return this.failNode(run, key, {
            code: 'tolerance_exceeded',
            message: `${progress.failed} of ${total} items failed; tolerance ${node.tolerance ?? 0} allows ${allowed}`,
            item_errors: itemErrors,
          });
        }
      } else {
        progress.completed++;
        results[index] = result;
      }
      launch();
    };
    launch();
  }

  private failNode(run: Run, key: string, error: NodeState['error'] & object): void {
    const state = run.nodes[key]!;
    state.status = 'failed';
    state.error = error;
    state.completed_at = this.now();
    this.end(run, 'failed', {
      code: 'node_failed',
      message: `node ${key} failed: ${error.code}: ${error.message}`,
    });
  }

  /** Finish the execution: running nodes are cancelled (their jobs too), the rest skipped. */
  private end(
    run: Run,
    status: ExecutionStatus,
    error: { code: string; message: string } | null,
  ): void {
    if (run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled') return;
    run.status = status;
    for (const state of Object.values(run.nodes)) {
      if (state.status === 'running') {
        state.status = 'cancelled';
        state.completed_at = this.now();
        for (const id of state.job_ids) {
          this.waiters.delete(id);
          this.svc.jobs.cancel(id);
        }
      } else if (state.status === 'pending') state.status = 'skipped';
    }
    this.save(run, { error });
    this.runs.delete(run.exec.id);
  }

  private save(
    run: Run,
    o: { started?: boolean; error?: { code: string; message: string } | null } = {},
  ): void {
    const terminal =
      run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled';
    workflowSql(this.svc.ctx.db).saveExecution.run(
      run.status,
      JSON.stringify(run.nodes),
      o.error ? JSON.stringify(o.error) : null,
      o.started ? this.now() : null,
      terminal ? this.now() : null,
      run.exec.id,
    );
  }
}

function jobError(row: JobRow): { code: string; message: string } {
  return row.error
    ? (JSON.parse(row.error) as { code: string; message: string })
    : { code: row.status, message: `job ${row.status}` };
}
