import type { SessionRecord } from '../../contract/resources/session.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/database.js';

/** A stored session (migration 0003). */
export interface SessionRow {
  id: string;
  workspace_id: string | null;
  scope_key: string;
  api_token_id: string | null;
  avatar_ref: string | null;
  voice_ref: string | null;
  persona: string | null;
  status: 'pending' | 'active' | 'ended' | 'deleted';
  session_token_id: string | null;
  box_id: string;
  box_host: string;
  seat_token_hash: Buffer | null;
  snapshot_json: string | null;
  cap_seconds: number;
  recording: number;
  created_at: number;
  last_heartbeat_at: number;
  started_at: number | null;
  ended_at: number | null;
  end_reason: string | null;
  deleted_at: number | null;
}

export const isLive = (s: Pick<SessionRow, 'status'>) =>
  s.status === 'pending' || s.status === 'active';

export function toSessionRecord(r: SessionRow): SessionRecord {
  return {
    id: r.id,
    workspace_id: r.workspace_id,
    api_token_id: r.api_token_id,
    avatar_ref: r.avatar_ref,
    voice_ref: r.voice_ref,
    status: r.status,
    session_token_id: r.session_token_id,
    box_host: r.box_host,
    created_at: r.created_at,
  };
}

type StatementName =
  | 'get'
  | 'insert'
  | 'setActive'
  | 'setEnded'
  | 'heartbeat'
  | 'liveIds'
  | 'usedSeconds'
  | 'turns'
  | 'addTurn'
  | 'eraseTurns'
  | 'eraseToolCalls'
  | 'anonymize'
  | 'recent';

/** Named statements built once (STYLE: storage as typed statements). */
export function sessionStatements(db: Db): Record<StatementName, Statement> {
  return {
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
  };
}
export type SessionStatements = Record<StatementName, Statement>;

export function getSessionRow(st: SessionStatements, id: string): SessionRow | undefined {
  return st.get.get(id) as SessionRow | undefined;
}
