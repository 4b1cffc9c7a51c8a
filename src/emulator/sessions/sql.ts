/** The SQL of sessions: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const sessionSql = statementTable((db) => ({
  listLiveSessionIds: db.prepare("SELECT id FROM sessions WHERE status IN ('pending', 'active')"),
  getSessionEnd: db.prepare('SELECT ended_at, status FROM sessions WHERE id = ?'),
  getSessionRecordingState: db.prepare(
    'SELECT ended_at, status, recording, box_id FROM sessions WHERE id = ?',
  ),
}));
