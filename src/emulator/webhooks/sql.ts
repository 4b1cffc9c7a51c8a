/** The SQL of webhooks: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const webhookSql = statementTable((db) => ({
  listActiveWebhooksByWorkspaceId: db.prepare(
    `SELECT id, url, secret, events FROM webhooks WHERE workspace_id = ? AND status = 'active' ORDER BY created_at, rowid`,
  ),
  insertWebhooks:
    db.prepare(`INSERT INTO webhooks (id, workspace_id, url, events, secret, description, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`),
  getWebhooksById: db.prepare('SELECT * FROM webhooks WHERE id = ?'),
  listWebhooksByWorkspaceId: db.prepare(
    'SELECT * FROM webhooks WHERE workspace_id = ? ORDER BY created_at, rowid',
  ),
  deleteWebhooksByIdAndWorkspaceId: db.prepare(
    'DELETE FROM webhooks WHERE id = ? AND workspace_id = ?',
  ),
}));
