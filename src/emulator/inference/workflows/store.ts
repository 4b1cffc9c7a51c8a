import type { Db } from '../../db/database.js';
import type { JobError } from '../jobs/store.js';
import type { z } from 'zod';
import type { WorkflowSchema } from '../../../contract/resources/inference-responses.js';
import { workflowSql } from './sql.js';

/** Node states: pending, running, completed, failed, skipped (never ran), cancelled (ours). */
export type NodeStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'cancelled';
/** Execution states: pending (spec), then running, completed, failed, cancelled (ours). */
export type ExecutionStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface NodeState {
  status: NodeStatus;
  result?: unknown;
  error?: JobError & { item_errors?: { index: number; code: string; message: string }[] };
  job_ids: string[];
  /** Map nodes: how many items there are and how they went. */
  progress?: { total: number; completed: number; failed: number };
  started_at?: number;
  completed_at?: number;
}

export interface WorkflowRow {
  id: string;
  org_id: string;
  name: string;
  dag: string;
  created_at: number;
}

export interface ExecutionRow {
  id: string;
  workflow_id: string;
  org_id: string;
  status: ExecutionStatus;
  input_params: string;
  nodes: string;
  error: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
}

export const workflowView = (w: WorkflowRow) => ({
  id: w.id,
  name: w.name,
  // The DAG validateDag accepted, as the contract shows it (nodes as plain objects).
  dag: JSON.parse(w.dag) as z.output<typeof WorkflowSchema>['dag'],
  created_at: w.created_at,
});

/** Spec 2: `{ id, workflow_id, status, input_params, created_at }`; nodes, error and times are ours. */
export const executionView = (e: ExecutionRow, full = true) => ({
  id: e.id,
  workflow_id: e.workflow_id,
  status: e.status,
  input_params: JSON.parse(e.input_params) as Record<string, unknown>,
  created_at: e.created_at,
  ...(full
    ? {
        started_at: e.started_at,
        completed_at: e.completed_at,
        ...(e.error ? { error: JSON.parse(e.error) as JobError } : {}),
        nodes: JSON.parse(e.nodes) as Record<string, NodeState>,
      }
    : {}),
});

export function getExecution(db: Db, id: string): ExecutionRow | undefined {
  return workflowSql(db).getWorkflowExecutionsById.get(id) as ExecutionRow | undefined;
}
