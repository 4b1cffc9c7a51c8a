import type { Migration } from './migration.js';

/**
 * Sessions, transcript turns, tool-call records, workspace webhooks, and the minimal MCP
 * server registry and built-in enablement that the mint checks (spec 4.5, 4.11, 6.3).
 * Avatar, voice and profile ids are plain TEXT (no foreign keys into issue 3's tables).
 * Seats and queue tickets are runtime state of the fleet and live in memory.
 */
export const sessions: Migration = {
  version: 3,
  name: 'sessions, transcripts, webhooks, mcp registry (checks), builtin enablement',
  up: `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT,
  scope_key TEXT NOT NULL,
  api_token_id TEXT,
  avatar_ref TEXT,
  voice_ref TEXT,
  persona TEXT,
  status TEXT NOT NULL,
  session_token_id TEXT,
  box_id TEXT NOT NULL,
  box_host TEXT NOT NULL,
  seat_token_hash BLOB,
  snapshot_json TEXT,
  cap_seconds INTEGER NOT NULL,
  recording INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  last_heartbeat_at INTEGER NOT NULL,
  started_at INTEGER,
  ended_at INTEGER,
  end_reason TEXT,
  deleted_at INTEGER);
CREATE INDEX sessions_scope_status ON sessions(scope_key, status);

CREATE TABLE session_turns (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, user_text TEXT NOT NULL, reply_text TEXT NOT NULL,
  created_at INTEGER NOT NULL, PRIMARY KEY (session_id, seq));

CREATE TABLE session_tool_calls (
  session_id TEXT NOT NULL, call_id TEXT NOT NULL, idem TEXT, tool TEXT NOT NULL,
  request_json TEXT, response_json TEXT, created_at INTEGER NOT NULL, PRIMARY KEY (session_id, call_id));

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, url TEXT NOT NULL, events TEXT NOT NULL,
  secret TEXT NOT NULL, description TEXT, status TEXT NOT NULL DEFAULT 'active', created_at INTEGER NOT NULL);
CREATE INDEX webhooks_ws ON webhooks(workspace_id);

CREATE TABLE mcp_servers (
  id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, name TEXT NOT NULL, url TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active', tools_json TEXT, tools_cached_at INTEGER, created_at INTEGER NOT NULL);
CREATE INDEX mcp_servers_ws ON mcp_servers(workspace_id);

CREATE TABLE builtin_servers (
  workspace_id TEXT NOT NULL, server_key TEXT NOT NULL, enabled INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, PRIMARY KEY (workspace_id, server_key));
`,
};
