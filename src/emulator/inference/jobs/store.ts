/** Spec 3 "Jobs": pending (waiting for a worker), processing, completed, failed, cancelled. */
export type JobStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'cancelled';
export const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/** Where a job came from: POST /api/jobs, compat-b, a workflow node, a batch line. */
export type JobSource = 'jobs' | 'compat-b' | 'workflow' | 'batch';

export interface JobError {
  code: string;
  message: string;
}

export interface JobRow {
  id: string;
  queue_id: string;
  org_id: string;
  key_id: string;
  source: JobSource;
  model_id: string;
  task: string;
  payload: string;
  status: JobStatus;
  result: string | null;
  error: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
}

/** The job record as GET /api/jobs/{id} and compat-b show it (fields beyond status/result/error: ours). */
export function jobView(row: JobRow, position?: number) {
  return {
    id: row.id,
    queue_id: row.queue_id,
    status: row.status,
    model_id: row.model_id,
    task: row.task,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    ...(row.error ? { error: JSON.parse(row.error) as JobError } : {}),
    ...(position !== undefined && row.status === 'pending' ? { queue_position: position } : {}),
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
  };
}
