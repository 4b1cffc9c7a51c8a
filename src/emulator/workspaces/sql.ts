/** The SQL of workspaces: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const workspaceSql = statementTable((db) => ({
  getWorkspacesById: db.prepare('SELECT * FROM workspaces WHERE id = ?'),
  listWorkspacesByOwnerUserId: db.prepare(
    'SELECT * FROM workspaces WHERE owner_user_id = ? ORDER BY created_at, rowid',
  ),
  getWorkspacesOrgIdByOwnerUserId: db.prepare(
    'SELECT org_id FROM workspaces WHERE owner_user_id = ? LIMIT 1',
  ),
  setWorkspacesNameById: db.prepare('UPDATE workspaces SET name = ?, updated_at = ? WHERE id = ?'),
  insertWorkspaces:
    db.prepare(`INSERT INTO workspaces (id, name, plan, owner_user_id, org_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, NULL)`),
  getWorkspaceOrg: db.prepare(
    'SELECT o.id, o.plan FROM workspaces w JOIN orgs o ON o.id = w.org_id WHERE w.id = ?',
  ),
  getWorkspacesFeaturesById: db.prepare('SELECT features FROM workspaces WHERE id = ?'),
  insertUsers: db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)'),
}));
