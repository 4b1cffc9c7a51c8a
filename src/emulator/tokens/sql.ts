/** The SQL of tokens: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const tokenSql = statementTable((db) => ({
  apiKeyLookupTaken: db.prepare('SELECT 1 FROM api_keys WHERE lookup = ?'),
  getApiKeysByLookup: db.prepare('SELECT * FROM api_keys WHERE lookup = ?'),
  getApiKeysAllowedOriginsById: db.prepare('SELECT allowed_origins FROM api_keys WHERE id = ?'),
  listApiKeysByWorkspaceId: db.prepare(
    `SELECT * FROM api_keys WHERE workspace_id = ? AND kind != 'device' ORDER BY created_at, rowid`,
  ),
  listApiKeysByUserId: db.prepare(
    `SELECT * FROM api_keys WHERE user_id = ? AND kind != 'device' ORDER BY created_at, rowid`,
  ),
  getApiKeyNotDeviceById: db.prepare(`SELECT * FROM api_keys WHERE id = ? AND kind != 'device'`),
  revokeApiKeyById: db.prepare(
    `UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE id = ?`,
  ),
  insertApiKeys:
    db.prepare(`INSERT INTO api_keys (id, user_id, workspace_id, device_id, name, kind, scopes, allowed_origins,
         lookup, secret_hash, token_prefix, status, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`),
  getApiKeysById: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
  rotateDeviceKey: db.prepare(
    `UPDATE api_keys SET lookup = ?, secret_hash = ?, token_prefix = ? WHERE device_id = ? AND kind = 'device'`,
  ),
  revokeApiKeysByDeviceId: db.prepare(
    `UPDATE api_keys SET status = 'revoked', revoked_at = ? WHERE device_id = ?`,
  ),
}));
