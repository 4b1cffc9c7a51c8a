/** The SQL of shared: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../../db/database.js';

export const inferenceSql = statementTable((db) => ({
  insertInferenceMedia: db.prepare(
    'INSERT INTO inference_media (id, org_id, content_type, bytes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
  ),
  getInferenceMediaById: db.prepare('SELECT bytes, expires_at FROM inference_media WHERE id = ?'),
  getInferenceMediaWithTypeById: db.prepare(
    'SELECT content_type, bytes, expires_at FROM inference_media WHERE id = ?',
  ),
  insertInferenceUsage:
    db.prepare(`INSERT INTO inference_usage (org_id, key_id, at, kind, route, model_id, status, prompt_tokens, completion_tokens, audio_seconds, images)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
}));
