import type { Migration } from './migration.js';

/**
 * Tools (spec 4.11, 6.2, 6.3): the rest of an MCP registration (auth, allowed tools,
 * timeout, probe error), the tool-call ledger's outcome columns (kept 30 days, erased with
 * the session), and each live session's tool channel (budget spent, disabled, failures).
 */
export const tools: Migration = {
  version: 5,
  name: 'tools: mcp registration fields, tool-call ledger outcome, session tool channel',
  up: `
ALTER TABLE mcp_servers ADD COLUMN auth_json TEXT;
ALTER TABLE mcp_servers ADD COLUMN allowed_tools TEXT;
ALTER TABLE mcp_servers ADD COLUMN default_timeout_ms INTEGER NOT NULL DEFAULT 8000;
ALTER TABLE mcp_servers ADD COLUMN last_error TEXT;

ALTER TABLE session_tool_calls ADD COLUMN source TEXT;
ALTER TABLE session_tool_calls ADD COLUMN ok INTEGER;
ALTER TABLE session_tool_calls ADD COLUMN ms INTEGER;
CREATE UNIQUE INDEX session_tool_calls_idem ON session_tool_calls(session_id, idem);

CREATE TABLE session_tool_channels (
  session_id TEXT PRIMARY KEY, spent INTEGER NOT NULL DEFAULT 0, disabled_reason TEXT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0);
`,
};
