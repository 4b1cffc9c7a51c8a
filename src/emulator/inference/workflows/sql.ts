/** The SQL of workflows: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

export const workflowSql = statementTable((db) => ({
  listRecentExecutions: db.prepare(
    'SELECT * FROM workflow_executions ORDER BY created_at DESC, rowid DESC LIMIT 100',
  ),
  getWorkflowsById: db.prepare('SELECT * FROM workflows WHERE id = ?'),
  insertWorkflows: db.prepare(
    'INSERT INTO workflows (id, org_id, name, dag, created_at) VALUES (?, ?, ?, ?, ?)',
  ),
  listWorkflowsByOrgId: db.prepare(
    'SELECT * FROM workflows WHERE org_id = ? ORDER BY created_at, rowid',
  ),
  listWorkflowExecutionsByWorkflowId: db.prepare(
    'SELECT * FROM workflow_executions WHERE workflow_id = ? ORDER BY created_at, rowid',
  ),
  insertWorkflowExecutions: db.prepare(
    `INSERT INTO workflow_executions (id, workflow_id, org_id, status, input_params, nodes, created_at) VALUES (?, ?, ?, 'pending', ?, ?, ?)`,
  ),
  getWorkflowExecutionsById: db.prepare('SELECT * FROM workflow_executions WHERE id = ?'),
  failUnfinishedExecutions: db.prepare(
    `UPDATE workflow_executions SET status = 'failed', error = ?, completed_at = ? WHERE status IN ('pending', 'running')`,
  ),
  saveExecution:
    db.prepare(`UPDATE workflow_executions SET status = ?, nodes = ?, error = COALESCE(?, error),
           started_at = COALESCE(started_at, ?), completed_at = ? WHERE id = ?`),
}));
