/** The SQL of profiles: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const profileSql = statementTable((db) => ({
  getAvatarProfilesByAvatarIdAndHash: db.prepare(
    'SELECT * FROM avatar_profiles WHERE avatar_id = ? AND hash = ? AND deleted_at IS NULL',
  ),
  setAvatarProfilesDeletedAtById: db.prepare(
    'UPDATE avatar_profiles SET deleted_at = ? WHERE id = ?',
  ),
  listAvatarProfilesByAvatarId: db.prepare(
    'SELECT * FROM avatar_profiles WHERE avatar_id = ? AND deleted_at IS NULL ORDER BY seq DESC',
  ),
  getAvatarProfilesByIdAndAvatarId: db.prepare(
    'SELECT * FROM avatar_profiles WHERE id = ? AND avatar_id = ? AND deleted_at IS NULL',
  ),
  nextProfileSeq: db.prepare(
    'SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM avatar_profiles WHERE avatar_id = ?',
  ),
  insertAvatarProfiles:
    db.prepare(`INSERT INTO avatar_profiles (id, avatar_id, hash, hash_short, system_prompt, backstory, tools_json, config_json,
         created_at, created_by, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
  getAvatarProfilesById: db.prepare('SELECT * FROM avatar_profiles WHERE id = ?'),
  getLiveAvatarProfileById: db.prepare(
    'SELECT * FROM avatar_profiles WHERE id = ? AND deleted_at IS NULL',
  ),
}));
