/** The SQL of idle-media: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const idleMediaSql = statementTable((db) => ({
  upsertIdleMedia:
    db.prepare(`INSERT INTO idle_media (version_id, avatar_id, status, blob_key, frames, error, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(version_id) DO UPDATE SET status = excluded.status, blob_key = excluded.blob_key,
           frames = excluded.frames, error = excluded.error, updated_at = excluded.updated_at`),
  getIdleMediaStatusByVersionId: db.prepare('SELECT status FROM idle_media WHERE version_id = ?'),
  findReadyIdleMediaForImage:
    db.prepare(`SELECT m.blob_key, m.frames FROM idle_media m JOIN avatar_versions v ON v.id = m.version_id
         WHERE m.status = 'ready' AND v.image_blob_key IS ? AND v.source_persona IS ? LIMIT 1`),
  getIdleMediaByVersionId: db.prepare(
    'SELECT blob_key, frames FROM idle_media WHERE version_id = ?',
  ),
  listIdleMediaBlobKey: db.prepare(
    `SELECT DISTINCT blob_key FROM idle_media WHERE status = 'ready' AND blob_key IS NOT NULL`,
  ),
  listIdleMediaVersionIdByBlobKey: db.prepare(
    `SELECT version_id FROM idle_media WHERE blob_key = ?`,
  ),
  markIdleMediaMissing: db.prepare(
    `UPDATE idle_media SET status = 'missing', blob_key = NULL WHERE version_id = ?`,
  ),
  markBuildingIdleMediaMissing: db.prepare(
    `UPDATE idle_media SET status = 'missing' WHERE status = 'building'`,
  ),
  getIdleMediaStatusErrorByVersionId: db.prepare(
    'SELECT status, error FROM idle_media WHERE version_id = ?',
  ),
  getReadyIdleMediaBlobKey: db.prepare(
    `SELECT blob_key FROM idle_media WHERE version_id = ? AND status = 'ready'`,
  ),
  getIdleMediaStatusBlobByVersionId: db.prepare(
    'SELECT status, blob_key FROM idle_media WHERE version_id = ?',
  ),
}));
