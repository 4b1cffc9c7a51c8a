/** The SQL of tools: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const toolSql = statementTable((db) => ({
  listSessionToolCallsBySessionId: db.prepare(
    'SELECT call_id, tool, source, ok, ms, created_at FROM session_tool_calls WHERE session_id = ? ORDER BY created_at, rowid',
  ),
  getBuiltinServerEnabled: db.prepare(
    'SELECT enabled FROM builtin_servers WHERE workspace_id = ? AND server_key = ?',
  ),
  upsertBuiltinServers:
    db.prepare(`INSERT INTO builtin_servers (workspace_id, server_key, enabled, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, server_key) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`),
  getMcpServersByIdAndWorkspaceId: db.prepare(
    'SELECT * FROM mcp_servers WHERE id = ? AND workspace_id = ?',
  ),
  getMcpServersById: db.prepare('SELECT * FROM mcp_servers WHERE id = ?'),
  listMcpServers: db.prepare('SELECT * FROM mcp_servers ORDER BY created_at, rowid'),
  setMcpServerTools: db.prepare(
    'UPDATE mcp_servers SET status = ?, tools_json = ?, tools_cached_at = ?, last_error = NULL WHERE id = ?',
  ),
  setMcpServerError: db.prepare('UPDATE mcp_servers SET status = ?, last_error = ? WHERE id = ?'),
  insertMcpServers:
    db.prepare(`INSERT INTO mcp_servers (id, workspace_id, name, url, status, created_at, auth_json, allowed_tools, default_timeout_ms)
       VALUES (?, ?, ?, ?, 'error', ?, ?, ?, ?)`),
  listMcpServersByWorkspaceId: db.prepare(
    'SELECT * FROM mcp_servers WHERE workspace_id = ? ORDER BY created_at, rowid',
  ),
  disableMcpServer: db.prepare(`UPDATE mcp_servers SET status = 'disabled' WHERE id = ?`),
  deleteMcpServersByIdAndWorkspaceId: db.prepare(
    'DELETE FROM mcp_servers WHERE id = ? AND workspace_id = ?',
  ),
  insertSessionToolChannelsIfAbsent: db.prepare(
    'INSERT OR IGNORE INTO session_tool_channels (session_id) VALUES (?)',
  ),
  getSessionToolChannelsBySessionId: db.prepare(
    'SELECT spent, disabled_reason, consecutive_failures FROM session_tool_channels WHERE session_id = ?',
  ),
  getStoredToolReply: db.prepare(
    'SELECT response_json FROM session_tool_calls WHERE session_id = ? AND idem = ?',
  ),
  spendToolChannel: db.prepare(
    'UPDATE session_tool_channels SET spent = spent + 1 WHERE session_id = ?',
  ),
  resetToolChannelFailures: db.prepare(
    'UPDATE session_tool_channels SET consecutive_failures = 0 WHERE session_id = ?',
  ),
  disableToolChannel: db.prepare(
    'UPDATE session_tool_channels SET disabled_reason = ? WHERE session_id = ?',
  ),
  countToolChannelFailure: db.prepare(
    'UPDATE session_tool_channels SET consecutive_failures = consecutive_failures + 1 WHERE session_id = ?',
  ),
  insertSessionToolCallsIfAbsent:
    db.prepare(`INSERT OR IGNORE INTO session_tool_calls (session_id, call_id, idem, tool, request_json, response_json, created_at, source, ok, ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  deleteSessionToolCallsByCreatedAt: db.prepare(
    'DELETE FROM session_tool_calls WHERE created_at < ?',
  ),
  deleteSessionToolChannelsByEndedAt: db.prepare(
    `DELETE FROM session_tool_channels WHERE session_id IN (SELECT id FROM sessions WHERE ended_at < ? OR status = 'deleted')`,
  ),
  getWorkspaceOrgById: db.prepare('SELECT org_id FROM workspaces WHERE id = ?'),
  insertToolUsage: db.prepare(
    'INSERT INTO tool_usage (org_id, workspace_id, at, server, tool, ok, ms, images) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
}));
