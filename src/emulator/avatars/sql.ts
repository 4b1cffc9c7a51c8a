/** The SQL of avatars: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const avatarSql = statementTable((db) => ({
  listAvatarsByWorkspaceId: db.prepare(
    'SELECT * FROM avatars WHERE workspace_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid',
  ),
  listAvatarsWithDeletedByWorkspaceId: db.prepare(
    'SELECT * FROM avatars WHERE workspace_id = ? ORDER BY created_at, rowid',
  ),
  setCurrentVersionAssetsStatus: db.prepare(
    'UPDATE avatars SET assets_status = ? WHERE id = ? AND current_version_id = ?',
  ),
  markAvatarAssetsMissingByVersionId: db.prepare(
    `UPDATE avatars SET assets_status = 'missing' WHERE current_version_id = ?`,
  ),
  markBuildingAvatarAssetsMissing: db.prepare(
    `UPDATE avatars SET assets_status = 'missing' WHERE assets_status = 'building'`,
  ),
  listAvatarsWithoutReadyIdleMedia:
    db.prepare(`SELECT a.current_version_id AS id, a.workspace_id FROM avatars a
       LEFT JOIN idle_media m ON m.version_id = a.current_version_id
       WHERE a.current_version_id IS NOT NULL AND a.deleted_at IS NULL AND (m.status IS NULL OR m.status != 'ready')
       ORDER BY CASE WHEN a.workspace_id = 'ws_stock' THEN 1 ELSE 0 END, a.created_at`),
  setAvatarsDefaultProfileIdById: db.prepare(
    'UPDATE avatars SET default_profile_id = ?, updated_at = ? WHERE id = ?',
  ),
  setAvatarsDefaultProfileIdKeepUpdatedAt: db.prepare(
    'UPDATE avatars SET default_profile_id = ? WHERE id = ?',
  ),
  setAvatarsProfilesSeededById: db.prepare('UPDATE avatars SET profiles_seeded = 1 WHERE id = ?'),
  setAvatarVersionsPublishedAtById: db.prepare(
    'UPDATE avatar_versions SET published_at = COALESCE(published_at, ?) WHERE id = ?',
  ),
  publishAvatarVersion:
    db.prepare(`UPDATE avatars SET current_version_id = ?, status = 'active', updated_at = ?,
           assets_status = COALESCE((SELECT status FROM idle_media WHERE version_id = ?), 'missing')
         WHERE id = ?`),
  listAvatarVersionsByAvatarId: db.prepare(
    'SELECT * FROM avatar_versions WHERE avatar_id = ? ORDER BY version_number',
  ),
  nextAvatarVersionNumber: db.prepare(
    'SELECT COALESCE(MAX(version_number), 0) + 1 AS n FROM avatar_versions WHERE avatar_id = ?',
  ),
  insertAvatarVersions:
    db.prepare(`INSERT INTO avatar_versions (id, avatar_id, version_number, image_blob_key, image_type, system_prompt, config_json,
         description, backstory, native_language, voice_ref_text, voice_blob_key, voice_type, voice_seconds,
         face_blob_keys, source_persona, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  setAvatarVersionsImageBlobKeyById: db.prepare(
    'UPDATE avatar_versions SET image_blob_key = ?, image_type = ? WHERE id = ? AND image_blob_key IS NULL',
  ),
  setAvatarVersionsVoiceBlobKeyById:
    db.prepare(`UPDATE avatar_versions SET voice_blob_key = ?, voice_type = ?, voice_seconds = ?,
             voice_ref_text = COALESCE(?, voice_ref_text) WHERE id = ? AND voice_blob_key IS NULL`),
  setAvatarVersionsFaceBlobKeysById: db.prepare(
    'UPDATE avatar_versions SET face_blob_keys = ? WHERE id = ?',
  ),
  insertAvatars:
    db.prepare(`INSERT INTO avatars (id, workspace_id, name, kind, status, region_tag, assets_status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'draft', 'local', 'missing', ?, ?)`),
  setAvatarsNameById: db.prepare('UPDATE avatars SET name = ?, updated_at = ? WHERE id = ?'),
  setAvatarsDeletedAtById: db.prepare(
    `UPDATE avatars SET deleted_at = ?, status = 'deleted', updated_at = ? WHERE id = ?`,
  ),
  getAvatarsById: db.prepare('SELECT * FROM avatars WHERE id = ?'),
  getAvatarVersionsById: db.prepare('SELECT * FROM avatar_versions WHERE id = ?'),
  setAvatarsUpdatedAtById: db.prepare('UPDATE avatars SET updated_at = ? WHERE id = ?'),
  insertAvatarsIfAbsent:
    db.prepare(`INSERT OR IGNORE INTO avatars (id, workspace_id, name, kind, current_version_id, status, region_tag,
       assets_status, created_at, updated_at) VALUES (?, ?, ?, 'stock', ?, 'active', 'any', 'missing', ?, ?)`),
  insertAvatarVersionsIfAbsent:
    db.prepare(`INSERT OR IGNORE INTO avatar_versions (id, avatar_id, version_number, image_blob_key, image_type, system_prompt,
       backstory, description, native_language, source_persona, published_at, created_at) VALUES (?, ?, 1, ?, 'image/png', ?, ?, ?, ?, ?, ?, ?)`),
  setAvatarVersionsBackstoryById: db.prepare(
    `UPDATE avatar_versions SET backstory = ? WHERE id = ? AND backstory IS NULL`,
  ),
}));
