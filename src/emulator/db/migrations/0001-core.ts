import type { Migration } from './migration.js';

export const core: Migration = {
  version: 1,
  name: 'core: users, orgs, workspaces, keys, devices, trusted issuers, settings',
  up: `
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL, created_at INTEGER NOT NULL);

CREATE TABLE orgs (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL DEFAULT 'free',
  owner_user_id TEXT NOT NULL REFERENCES users(id), created_at INTEGER NOT NULL);

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL DEFAULT 'free',
  owner_user_id TEXT NOT NULL, org_id TEXT,
  zdr INTEGER NOT NULL DEFAULT 0,
  features TEXT NOT NULL DEFAULT '["custom_avatars"]',
  created_at INTEGER NOT NULL, updated_at INTEGER);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  workspace_id TEXT REFERENCES workspaces(id),
  device_id TEXT,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('secret', 'publishable', 'device')),
  scopes TEXT NOT NULL,
  allowed_origins TEXT,
  lookup TEXT NOT NULL UNIQUE,
  secret_hash BLOB NOT NULL,
  token_prefix TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL,
  revoked_at INTEGER);
CREATE INDEX api_keys_user ON api_keys(user_id);

CREATE TABLE devices (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  name TEXT NOT NULL, platform TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',
  created_at INTEGER NOT NULL, last_seen_at INTEGER, revoked_at INTEGER, rotated_at INTEGER);
CREATE INDEX devices_ws ON devices(workspace_id);

CREATE TABLE trusted_issuers (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  iss TEXT NOT NULL, aud TEXT NOT NULL, jwks_uri TEXT NOT NULL, algs TEXT NOT NULL,
  created_at INTEGER NOT NULL);
CREATE INDEX trusted_issuers_ws ON trusted_issuers(workspace_id);
`,
};
