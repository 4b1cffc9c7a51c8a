/** The SQL of issuers: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const issuerSql = statementTable((db) => ({
  getTrustedIssuersByWorkspaceIdAndIss: db.prepare(
    'SELECT id, iss, aud, jwks_uri, algs FROM trusted_issuers WHERE workspace_id = ? AND iss = ?',
  ),
  listTrustedIssuersByWorkspaceId: db.prepare(
    'SELECT * FROM trusted_issuers WHERE workspace_id = ? ORDER BY created_at, rowid',
  ),
  getTrustedIssuerIdByIssAud: db.prepare(
    'SELECT id FROM trusted_issuers WHERE workspace_id = ? AND iss = ? AND aud = ?',
  ),
  insertTrustedIssuers: db.prepare(
    `INSERT INTO trusted_issuers (id, workspace_id, iss, aud, jwks_uri, algs, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ),
  getTrustedIssuersById: db.prepare('SELECT * FROM trusted_issuers WHERE id = ?'),
  deleteTrustedIssuersByIdAndWorkspaceId: db.prepare(
    'DELETE FROM trusted_issuers WHERE id = ? AND workspace_id = ?',
  ),
}));
