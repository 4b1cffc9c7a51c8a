/** The SQL of orgs: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

export const orgSql = statementTable((db) => ({
  setOrgsPlanById: db.prepare('UPDATE orgs SET plan = ? WHERE id = ?'),
  getOrgsByOwnerUserId: db.prepare(
    'SELECT id, plan FROM orgs WHERE owner_user_id = ? ORDER BY created_at, id LIMIT 1',
  ),
  getOrgsPlanById: db.prepare('SELECT plan FROM orgs WHERE id = ?'),
  getOrgsIdById: db.prepare('SELECT id FROM orgs WHERE id = ?'),
  getOrgsById: db.prepare('SELECT id, name, plan, created_at FROM orgs WHERE id = ?'),
  listOrgTokensByOrgId: db.prepare(
    'SELECT * FROM org_tokens WHERE org_id = ? ORDER BY created_at, rowid',
  ),
  getOrgTokensByIdAndOrgId: db.prepare('SELECT * FROM org_tokens WHERE id = ? AND org_id = ?'),
  revokeOrgTokenById: db.prepare(
    `UPDATE org_tokens SET status = 'revoked', revoked_at = ? WHERE id = ?`,
  ),
  getOrgTokensRevokedAtById: db.prepare('SELECT revoked_at FROM org_tokens WHERE id = ?'),
  getOrgTokensByLookup: db.prepare('SELECT * FROM org_tokens WHERE lookup = ?'),
  orgTokenLookupTaken: db.prepare('SELECT 1 FROM org_tokens WHERE lookup = ?'),
  insertOrgTokens:
    db.prepare(`INSERT INTO org_tokens (id, org_id, name, scopes, lookup, secret_hash, token_prefix, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?)`),
  getOrgTokensById: db.prepare('SELECT * FROM org_tokens WHERE id = ?'),
  insertOrgs: db.prepare(
    'INSERT INTO orgs (id, name, plan, owner_user_id, created_at) VALUES (?, ?, ?, ?, ?)',
  ),
}));
