/** The SQL of devices: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const deviceSql = statementTable((db) => ({
  getDevicesStatusById: db.prepare('SELECT status FROM devices WHERE id = ?'),
  setDevicesLastSeenAtById: db.prepare('UPDATE devices SET last_seen_at = ? WHERE id = ?'),
  getDevicesByIdAndWorkspaceId: db.prepare(
    'SELECT * FROM devices WHERE id = ? AND workspace_id = ?',
  ),
  listDevicesByWorkspaceId: db.prepare(
    'SELECT * FROM devices WHERE workspace_id = ? ORDER BY created_at, rowid',
  ),
  insertDevices: db.prepare(
    `INSERT INTO devices (id, workspace_id, name, platform, status, created_at) VALUES (?, ?, ?, ?, 'active', ?)`,
  ),
  setDevicesRotatedAtById: db.prepare('UPDATE devices SET rotated_at = ? WHERE id = ?'),
  setDevicesStatusById: db.prepare(
    `UPDATE devices SET status = 'revoked', revoked_at = ? WHERE id = ?`,
  ),
}));
