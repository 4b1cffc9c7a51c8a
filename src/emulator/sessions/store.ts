import type { SessionRecord } from '../../contract/resources/session.js';
import type { sessionSql } from './sql.js';

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

/** The sessions' named statements (`sessions/sql.ts`). */
export type SessionStatements = ReturnType<typeof sessionSql>;

export function getSessionRow(st: SessionStatements, id: string): SessionRow | undefined {
  return st.get.get(id) as SessionRow | undefined;
}
