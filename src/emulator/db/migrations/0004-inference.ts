import type { Migration } from './migration.js';

/** Inference family (spec 4.12): organisation tokens, jobs, media, files, batches, workflows, usage. */
export const inference: Migration = {
  version: 4,
  name: 'inference: org tokens, jobs, media, files, batches, workflows, usage',
  up: `
CREATE TABLE org_tokens (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL REFERENCES orgs(id), name TEXT NOT NULL,
  scopes TEXT NOT NULL, lookup TEXT NOT NULL UNIQUE, secret_hash BLOB NOT NULL,
  token_prefix TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL, revoked_at INTEGER);
CREATE INDEX org_tokens_org ON org_tokens(org_id);

CREATE TABLE inference_jobs (
  id TEXT PRIMARY KEY, queue_id TEXT NOT NULL, org_id TEXT NOT NULL, key_id TEXT NOT NULL,
  source TEXT NOT NULL, model_id TEXT NOT NULL, task TEXT NOT NULL, payload TEXT NOT NULL,
  status TEXT NOT NULL, result TEXT, error TEXT,
  created_at INTEGER NOT NULL, started_at INTEGER, completed_at INTEGER);
CREATE INDEX inference_jobs_org ON inference_jobs(org_id, created_at);
CREATE INDEX inference_jobs_status ON inference_jobs(status);

CREATE TABLE inference_media (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, content_type TEXT NOT NULL, bytes BLOB NOT NULL,
  created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);

CREATE TABLE inference_files (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, filename TEXT NOT NULL, purpose TEXT NOT NULL,
  bytes BLOB NOT NULL, size INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'processed',
  created_at INTEGER NOT NULL);
CREATE INDEX inference_files_org ON inference_files(org_id, created_at);

CREATE TABLE inference_batches (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, record TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX inference_batches_org ON inference_batches(org_id, created_at);

CREATE TABLE workflows (
  id TEXT PRIMARY KEY, org_id TEXT NOT NULL, name TEXT NOT NULL, dag TEXT NOT NULL,
  created_at INTEGER NOT NULL);

CREATE TABLE workflow_executions (
  id TEXT PRIMARY KEY, workflow_id TEXT NOT NULL REFERENCES workflows(id), org_id TEXT NOT NULL,
  status TEXT NOT NULL, input_params TEXT NOT NULL, nodes TEXT NOT NULL, error TEXT,
  created_at INTEGER NOT NULL, started_at INTEGER, completed_at INTEGER);
CREATE INDEX workflow_executions_wf ON workflow_executions(workflow_id, created_at);

CREATE TABLE inference_usage (
  org_id TEXT NOT NULL, key_id TEXT NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL,
  route TEXT NOT NULL, model_id TEXT, status INTEGER NOT NULL,
  prompt_tokens INTEGER NOT NULL DEFAULT 0, completion_tokens INTEGER NOT NULL DEFAULT 0,
  audio_seconds REAL NOT NULL DEFAULT 0, images INTEGER NOT NULL DEFAULT 0);
CREATE INDEX inference_usage_org ON inference_usage(org_id, at);
`,
};
