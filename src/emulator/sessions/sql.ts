/** The SQL of sessions: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const sessionSql = statementTable((db) => ({
  get: db.prepare('SELECT * FROM sessions WHERE id = ?'),
  insert: db.prepare(
    `INSERT INTO sessions (id, workspace_id, scope_key, api_token_id, avatar_ref, voice_ref, persona, status,
         session_token_id, box_id, box_host, seat_token_hash, snapshot_json, cap_seconds, recording, created_at,
         last_heartbeat_at)
       VALUES (@id, @workspace_id, @scope_key, @api_token_id, @avatar_ref, @voice_ref, @persona, 'pending',
         @session_token_id, @box_id, @box_host, @seat_token_hash, @snapshot_json, @cap_seconds, @recording,
         @created_at, @created_at)`,
  ),
  setActive: db.prepare(
    `UPDATE sessions SET status = 'active', started_at = ? WHERE id = ? AND status = 'pending'`,
  ),
  setEnded: db.prepare(
    `UPDATE sessions SET status = 'ended', ended_at = ?, end_reason = ? WHERE id = ? AND status IN ('pending', 'active')`,
  ),
  heartbeat: db.prepare('UPDATE sessions SET last_heartbeat_at = ? WHERE id = ?'),
  liveIds: db.prepare(`SELECT id, box_id FROM sessions WHERE status IN ('pending', 'active')`),
  /** The operator list (`GET /_emulator/sessions`): newest first, live ones only unless @all. */
  recent: db.prepare(
    `SELECT id, status, persona, avatar_ref, workspace_id, box_id, cap_seconds, created_at, started_at, ended_at, end_reason
       FROM sessions WHERE @all = 1 OR status IN ('pending', 'active')
       ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
  ),
  /** Seconds used today by a scope (quota): ended sessions' lengths plus live ones so far. */
  usedSeconds: db.prepare(
    `SELECT COALESCE(SUM(MAX(0, COALESCE(ended_at, @now) - COALESCE(started_at, ended_at, @now))), 0) AS s
       FROM sessions WHERE scope_key = @scope AND created_at >= @since AND status != 'deleted'`,
  ),
  turns: db.prepare(
    'SELECT seq, user_text, reply_text FROM session_turns WHERE session_id = ? ORDER BY seq',
  ),
  addTurn: db.prepare(
    `INSERT INTO session_turns (session_id, seq, user_text, reply_text, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(session_id, seq) DO UPDATE SET user_text = excluded.user_text, reply_text = excluded.reply_text`,
  ),
  eraseTurns: db.prepare('DELETE FROM session_turns WHERE session_id = ?'),
  eraseToolCalls: db.prepare('DELETE FROM session_tool_calls WHERE session_id = ?'),
  /** spec 3: erased, row anonymized (not removed); billing attribution (workspace, key, times) survives. */
  anonymize: db.prepare(
    `UPDATE sessions SET status = 'deleted', avatar_ref = NULL, voice_ref = NULL, persona = NULL,
         snapshot_json = NULL, seat_token_hash = NULL, session_token_id = NULL, deleted_at = ? WHERE id = ?`,
  ),
  listLiveSessionIds: db.prepare("SELECT id FROM sessions WHERE status IN ('pending', 'active')"),
  getSessionEnd: db.prepare('SELECT ended_at, status FROM sessions WHERE id = ?'),
  getSessionRecordingState: db.prepare(
    'SELECT ended_at, status, recording, box_id FROM sessions WHERE id = ?',
  ),
}));
