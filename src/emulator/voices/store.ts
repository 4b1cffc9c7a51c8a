import { createHash } from 'node:crypto';
import { STOCK_WORKSPACE_ID, transcriptionOf } from '../../contract/resources/avatar.js';
import type { Voice } from '../../contract/resources/voice.js';
import type { AuthContext } from '../auth/authenticate.js';
import { canAccessWorkspace, workspaceFromPath, type WorkspaceRow } from '../auth/workspace.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import { workspaceSql } from '../workspaces/sql.js';
import { voiceSql } from './sql.js';

export interface VoiceRow {
  id: string;
  workspace_id: string;
  name: string;
  kind: string;
  current_version_id: string | null;
  status: string;
  deleted_at: number | null;
  region_tag: string;
  created_at: number;
  updated_at: number;
}

export interface VoiceVersionRow {
  id: string;
  voice_id: string;
  version_number: number;
  sample_blob_key: string | null;
  sample_type: string | null;
  sample_seconds: number | null;
  ref_text: string | null;
  config_json: string | null;
  external_voice_id: string | null;
  created_by: string | null;
  created_at: number;
}

export const toVoice = (r: VoiceRow): Voice => ({
  id: r.id,
  workspace_id: r.workspace_id,
  name: r.name,
  kind: r.kind,
  current_version_id: r.current_version_id,
  status: r.status,
  deleted_at: r.deleted_at,
  region_tag: r.region_tag,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const toVoiceVersion = (r: VoiceVersionRow) => ({
  id: r.id,
  voice_id: r.voice_id,
  version_number: r.version_number,
  sample_blob_key: r.sample_blob_key,
  external_voice_id: r.external_voice_id,
  created_by: r.created_by,
  created_at: r.created_at,
  config_json: r.config_json,
  sample_seconds: r.sample_seconds,
  ref_text: r.ref_text,
  transcription: transcriptionOf(r.ref_text, r.sample_blob_key),
});

/** A voice the caller may read (same visibility rules as avatars; foreign ids answer 404). */
export function readableVoice(
  db: Db,
  auth: AuthContext,
  voiceId: string,
  pathWsId?: string,
): VoiceRow {
  if (pathWsId && pathWsId !== STOCK_WORKSPACE_ID) workspaceFromPath(db, auth, pathWsId);
  const v = voiceSql(db).getVoicesById.get(voiceId) as VoiceRow | undefined;
  if (!v || (pathWsId && v.workspace_id !== pathWsId))
    throw new ApiError(404, 'not_found', { message: `voice ${voiceId} not found` });
  const ws = workspaceSql(db).getWorkspacesById.get(v.workspace_id) as WorkspaceRow | undefined;
  if (!ws || !canAccessWorkspace(auth, ws))
    throw new ApiError(404, 'not_found', { message: `voice ${voiceId} not found` });
  return v;
}

export function writableVoice(
  db: Db,
  auth: AuthContext,
  voiceId: string,
  pathWsId?: string,
): VoiceRow {
  const v = readableVoice(db, auth, voiceId, pathWsId);
  if (v.deleted_at !== null)
    throw new ApiError(404, 'not_found', { message: `voice ${voiceId} is deleted` });
  return v;
}

export function voiceVersionOf(db: Db, voice: VoiceRow, versionId: string): VoiceVersionRow {
  const r = voiceSql(db).getVoiceVersionsByIdAndVoiceId.get(versionId, voice.id) as
    | VoiceVersionRow
    | undefined;
  if (!r) throw new ApiError(404, 'not_found', { message: `voice version ${versionId} not found` });
  return r;
}

/** A provider-style id for a cloned voice, derived from the sample (ours; spec leaves it open). */
export const externalVoiceId = (sample: Uint8Array) =>
  `ev_${createHash('sha256').update(sample).digest('hex').slice(0, 24)}`;
