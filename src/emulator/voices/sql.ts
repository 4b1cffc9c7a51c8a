/** The SQL of voices: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const voiceSql = statementTable((db) => ({
  getVoicesById: db.prepare('SELECT * FROM voices WHERE id = ?'),
  listVoicesByWorkspaceId: db.prepare(
    'SELECT * FROM voices WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid',
  ),
  insertVoices:
    db.prepare(`INSERT INTO voices (id, workspace_id, name, kind, status, region_tag, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'draft', 'local', ?, ?)`),
  setVoicesNameById: db.prepare('UPDATE voices SET name = ?, updated_at = ? WHERE id = ?'),
  setVoicesDeletedAtById: db.prepare(
    `UPDATE voices SET deleted_at = ?, status = 'deleted', updated_at = ? WHERE id = ?`,
  ),
  listVoiceVersionsByVoiceId: db.prepare(
    'SELECT * FROM voice_versions WHERE voice_id = ? ORDER BY version_number',
  ),
  nextVoiceVersionNumber: db.prepare(
    'SELECT COALESCE(MAX(version_number), 0) + 1 AS n FROM voice_versions WHERE voice_id = ?',
  ),
  insertVoiceVersions: db.prepare(
    `INSERT INTO voice_versions (id, voice_id, version_number, config_json, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
  ),
  setVoiceVersionsSampleBlobKeyById:
    db.prepare(`UPDATE voice_versions SET sample_blob_key = ?, sample_type = ?, sample_seconds = ?, ref_text = ?, external_voice_id = ?
           WHERE id = ? AND sample_blob_key IS NULL`),
  setVoicesCurrentVersionIdById: db.prepare(
    `UPDATE voices SET current_version_id = ?, status = 'active', updated_at = ? WHERE id = ?`,
  ),
  getVoiceVersionsByIdAndVoiceId: db.prepare(
    'SELECT * FROM voice_versions WHERE id = ? AND voice_id = ?',
  ),
  getVoiceVersionWithVoice: db.prepare(
    `SELECT vv.*, v.workspace_id, v.deleted_at AS voice_deleted FROM voice_versions vv JOIN voices v ON v.id = vv.voice_id WHERE vv.id = ?`,
  ),
}));
