import type { Migration } from './migration.js';

/**
 * Built-in tool usage (spec 6.3: "Built-in tools are reported by the box after completion,
 * which fires webhooks and usage records"): one row per reported built-in call, for the
 * organisation's usage aggregates (GET /api/organizations/{orgId}/usage). Rows carry no
 * session id or text: they outlive the session and its ledger, as billing records do.
 */
export const toolUsage: Migration = {
  version: 6,
  name: 'tool usage: one row per built-in tool call the box reports',
  up: `
CREATE TABLE tool_usage (
  org_id TEXT NOT NULL, workspace_id TEXT, at INTEGER NOT NULL, server TEXT NOT NULL,
  tool TEXT NOT NULL, ok INTEGER NOT NULL, ms INTEGER NOT NULL, images INTEGER NOT NULL DEFAULT 0);
CREATE INDEX tool_usage_org ON tool_usage(org_id, at);
`,
};
