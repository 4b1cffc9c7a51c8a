/** The SQL of jobs: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

export const jobSql = statementTable((db) => ({
  listRecentJobs:
    db.prepare(`SELECT id, org_id, source, model_id, task, status, error, created_at, started_at, completed_at
           FROM inference_jobs ORDER BY created_at DESC, rowid DESC LIMIT 100`),
  insert:
    db.prepare(`INSERT INTO inference_jobs (id, queue_id, org_id, key_id, source, model_id, task, payload, status, created_at)
       VALUES (@id, @queue_id, @org_id, @key_id, @source, @model_id, @task, @payload, 'pending', @created_at)`),
  get: db.prepare('SELECT * FROM inference_jobs WHERE id = ?'),
  start: db.prepare(
    `UPDATE inference_jobs SET status = 'processing', started_at = ? WHERE id = ? AND status = 'pending'`,
  ),
  finish: db.prepare(
    `UPDATE inference_jobs SET status = ?, result = ?, error = ?, completed_at = ? WHERE id = ? AND status IN ('pending', 'processing')`,
  ),
  unfinished: db.prepare(
    `SELECT id, status FROM inference_jobs WHERE status IN ('pending', 'processing') ORDER BY created_at, rowid`,
  ),
  requeue: db.prepare(
    `UPDATE inference_jobs SET status = 'pending', started_at = NULL WHERE id = ?`,
  ),
}));
