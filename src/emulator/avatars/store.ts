import {
  STOCK_WORKSPACE_ID,
  transcriptionOf,
  type Avatar,
  type AvatarVersion,
} from '../../contract/resources/avatar.js';
import type { AuthContext } from '../auth/authenticate.js';
import {
  canAccessWorkspace,
  workspaceForKey,
  workspaceFromPath,
  type WorkspaceRow,
} from '../auth/workspace.js';
import type { EmulatorContext } from '../context.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import { workspaceSql } from '../workspaces/sql.js';
import { avatarSql } from './sql.js';

export interface AvatarRow {
  id: string;
  workspace_id: string;
  name: string;
  kind: string;
  current_version_id: string | null;
  status: string;
  deleted_at: number | null;
  region_tag: string;
  assets_status: 'missing' | 'building' | 'ready';
  default_profile_id: string | null;
  profiles_seeded: number;
  created_at: number;
  updated_at: number;
}

export interface VersionRow {
  id: string;
  avatar_id: string;
  version_number: number;
  image_blob_key: string | null;
  image_type: string | null;
  system_prompt: string | null;
  config_json: string | null;
  description: string | null;
  backstory: string | null;
  native_language: string | null;
  voice_ref_text: string | null;
  voice_blob_key: string | null;
  voice_type: string | null;
  voice_seconds: number | null;
  face_blob_keys: string;
  source_persona: string | null;
  published_at: number | null;
  created_by: string | null;
  created_at: number;
}

export const isStock = (a: { workspace_id: string }) => a.workspace_id === STOCK_WORKSPACE_ID;

export function toAvatar(r: AvatarRow): Avatar {
  return {
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
    assets_status: r.assets_status,
    default_profile_id: r.default_profile_id,
  };
}

export function toVersion(r: VersionRow): AvatarVersion {
  return {
    id: r.id,
    avatar_id: r.avatar_id,
    version_number: r.version_number,
    image_blob_key: r.image_blob_key,
    system_prompt: r.system_prompt,
    config_json: r.config_json,
    created_by: r.created_by,
    created_at: r.created_at,
    description: r.description,
    backstory: r.backstory,
    native_language: r.native_language,
    voice_ref_text: r.voice_ref_text,
    voice_transcription: transcriptionOf(r.voice_ref_text, r.voice_blob_key),
    voice_blob_key: r.voice_blob_key,
    voice_seconds: r.voice_seconds,
    face_blob_keys: JSON.parse(r.face_blob_keys) as string[],
    source_persona: r.source_persona,
    published_at: r.published_at,
  };
}

export const getAvatarRow = (db: Db, id: string) =>
  avatarSql(db).getAvatarsById.get(id) as AvatarRow | undefined;

export const getVersionRow = (db: Db, id: string) =>
  avatarSql(db).getAvatarVersionsById.get(id) as VersionRow | undefined;

/**
 * The workspace a list/create acts on. Explicit shape: the path's `{wsId}` (`ws_stock`
 * reads for everyone). Token-relative: the key's workspace, else `workspace_id`, else
 * 400 `workspace_id_required` (spec 5.2).
 */
export function targetWorkspace(
  db: Db,
  auth: AuthContext,
  pathWsId: string | undefined,
  queryWsId: string | undefined,
): { id: string; row: WorkspaceRow | null } {
  if (pathWsId === STOCK_WORKSPACE_ID) return { id: STOCK_WORKSPACE_ID, row: null };
  const row = pathWsId
    ? workspaceFromPath(db, auth, pathWsId)
    : workspaceForKey(db, auth, queryWsId ?? null);
  return { id: row.id, row };
}

export const stockReadOnly = () =>
  new ApiError(403, 'stock_read_only', { message: 'the stock workspace (ws_stock) is read-only' });

/**
 * An avatar the caller may read: stock avatars are open to every key; others need
 * access to their workspace. A foreign avatar answers 404 on the token-relative shape
 * (its existence is not revealed) and 403 on an explicit path the key cannot reach.
 */
export function readableAvatar(
  db: Db,
  auth: AuthContext,
  avatarId: string,
  pathWsId?: string,
): AvatarRow {
  const a = getAvatarRow(db, avatarId);
  if (pathWsId && pathWsId !== STOCK_WORKSPACE_ID) workspaceFromPath(db, auth, pathWsId);
  if (!a || (pathWsId && a.workspace_id !== pathWsId))
    throw new ApiError(404, 'not_found', { message: `avatar ${avatarId} not found` });
  if (isStock(a)) return a;
  const ws = workspaceSql(db).getWorkspacesById.get(a.workspace_id) as WorkspaceRow | undefined;
  if (!ws || !canAccessWorkspace(auth, ws))
    throw new ApiError(404, 'not_found', { message: `avatar ${avatarId} not found` });
  return a;
}

/** An avatar the caller may change: readable, not stock (403 `stock_read_only`), not deleted. */
export function writableAvatar(
  db: Db,
  auth: AuthContext,
  avatarId: string,
  pathWsId?: string,
): AvatarRow {
  const a = readableAvatar(db, auth, avatarId, pathWsId);
  if (isStock(a)) throw stockReadOnly();
  if (a.deleted_at !== null)
    throw new ApiError(404, 'not_found', { message: `avatar ${avatarId} is deleted` });
  return a;
}

export function versionOf(db: Db, avatar: AvatarRow, versionId: string): VersionRow {
  const v = getVersionRow(db, versionId);
  if (!v || v.avatar_id !== avatar.id)
    throw new ApiError(404, 'not_found', { message: `version ${versionId} not found` });
  return v;
}

/** spec 4.9: profile (and, ours, media) writes need the workspace feature `custom_avatars`. */
export function requireCustomAvatars(db: Db, workspaceId: string): void {
  const ws = workspaceSql(db).getWorkspacesFeaturesById.get(workspaceId) as
    | { features: string }
    | undefined;
  const features = ws ? (JSON.parse(ws.features) as string[]) : [];
  if (!features.includes('custom_avatars')) {
    throw new ApiError(403, 'forbidden', {
      message: 'the custom_avatars feature is not enabled for this workspace',
      detail: 'missing_feature:custom_avatars',
    });
  }
}

export function touchAvatar(ctx: EmulatorContext, id: string, now: number): void {
  avatarSql(ctx.db).setAvatarsUpdatedAtById.run(now, id);
}
