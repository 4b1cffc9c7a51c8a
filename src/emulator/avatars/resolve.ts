/**
 * What the session mint (spec 4.5) asks of avatars, voices and profiles. The mint freezes
 * what these return; later edits affect only later mints.
 *
 *   resolveAvatar(ctx, sel: AvatarSelector): Resolution<ResolvedAvatar>
 *     sel = { workspaceId: string | null,            // the caller's workspace (null: none)
 *             avatar_id?, avatar_ref?, persona?,      // exactly one (spec 4.5)
 *             avatar_version_id? }                    // only with avatar_id
 *     -> { ok: true, value } with the avatar, the frozen version data (face blob or
 *        persona key, voice, system_prompt, backstory, config_json, language), the idle
 *        media state and the avatar's default profile (profile 1 is synthesized here on
 *        first mint, spec 4.9), or { ok: false, status, error, message } with:
 *        400 avatar_ref_avatar_id_exclusive | avatar_ref_persona_exclusive |
 *        invalid_request (none given, or avatar_version_id without avatar_id) |
 *        avatar_not_published | version_not_published; 404 not_found (unknown persona,
 *        avatar or version, deleted avatar, or another workspace's).
 *
 *   resolveProfile(ctx, avatarId, profileId?: string): Resolution<ResolvedProfile>
 *     -> the pinned profile (`source: 'param'`), else the default (`'default'`), else
 *        `{ profile: null, source: 'none' }`. A `profileId` of another avatar (or unknown)
 *        is 400 profile_mismatch. `tools` is null when the stored tools_json is malformed
 *        (spec 7: a stored tools_json never fails a mint).
 *
 *   resolveVoiceRef(ctx, workspaceId, voiceVersionId): Resolution<ResolvedVoice>
 *     -> a voice version of the workspace that has its sample; 404 not_found otherwise.
 *
 * Per-field text resolution (spec 1): session parameter, else profile, else version.
 * `pickText(session, profile, version)` does that for one field.
 */
import { STOCK_WORKSPACE_ID } from '../../contract/resources/avatar.js';
import type { ConfigGroup } from '../../contract/validators/config.js';
import { reject, type Validation } from '../../contract/validators/result.js';
import { parseStoredTools, type ToolsObject } from '../../contract/validators/tools.js';
import type { EmulatorContext } from '../context.js';
import { loadPersonas } from '../gallery/personas.js';
import { ensureProfiles, type ProfileRow } from '../profiles/store.js';
import { blobPath } from './blobs.js';
import { stockAvatarId } from './stock.js';
import { getAvatarRow, getVersionRow, type AvatarRow, type VersionRow } from './store.js';
import { voiceSql } from '../voices/sql.js';
import { profileSql } from '../profiles/sql.js';
import { idleMediaSql } from '../idle-media/sql.js';

export type Resolution<T> = Validation<T>;

export interface AvatarSelector {
  workspaceId: string | null;
  avatar_id?: string;
  avatar_ref?: string;
  persona?: string;
  avatar_version_id?: string;
}

export interface StoredMedia {
  blob_key: string;
  content_type: string;
  /** Absolute file path (same process only; the edge fetches over HTTP instead). */
  path: string;
}

export interface ResolvedProfile {
  profile: {
    id: string;
    hash: string;
    hash_short: string;
    system_prompt: string | null;
    backstory: string | null;
    /** Validated tools object, or null (none stored, or malformed: spec 7). */
    tools: ToolsObject | null;
    config: ConfigGroup | null;
  } | null;
  source: 'param' | 'default' | 'none';
}

export interface ResolvedAvatar {
  avatar: {
    id: string;
    workspace_id: string;
    name: string;
    kind: string;
    stock: boolean;
    region_tag: string;
    assets_status: 'missing' | 'building' | 'ready';
    default_profile_id: string | null;
  };
  version: {
    id: string;
    version_number: number;
    /** Stock persona key when the face and voice come from the catalog. */
    persona: string | null;
    /** espeak-ng voice of the persona (fixtures/personas/personas.json), when stock. */
    persona_voice: string | null;
    face: StoredMedia | null;
    extra_faces: string[];
    voice: (StoredMedia & { seconds: number | null; ref_text: string | null }) | null;
    system_prompt: string | null;
    backstory: string | null;
    description: string | null;
    config: ConfigGroup | null;
    language: string | null;
  };
  /** Idle loop of this version; `status` other than ready means: hold a still frame. */
  idle: { status: 'missing' | 'building' | 'ready'; blob_key: string | null; path: string | null };
  /** The avatar's default profile (source `default`), or none. */
  defaultProfile: ResolvedProfile;
}

export interface ResolvedVoice {
  voice_id: string;
  version_id: string;
  sample: StoredMedia & { seconds: number | null; ref_text: string | null };
  external_voice_id: string | null;
}

const notFound = (what: string) => reject(404, 'not_found', `${what} not found`);

export function pickText(
  session: string | null | undefined,
  profile: string | null | undefined,
  version: string | null | undefined,
): string | null {
  return session ?? profile ?? version ?? null;
}

function visible(a: AvatarRow, workspaceId: string | null): boolean {
  return (
    a.workspace_id === STOCK_WORKSPACE_ID ||
    (workspaceId !== null && a.workspace_id === workspaceId)
  );
}

export function resolveAvatar(
  ctx: EmulatorContext,
  sel: AvatarSelector,
): Resolution<ResolvedAvatar> {
  const { db } = ctx;
  const has = (v: string | undefined) => v !== undefined && v !== null && v !== '';
  if (has(sel.avatar_ref) && has(sel.avatar_id)) {
    return reject(400, 'avatar_ref_avatar_id_exclusive', 'send avatar_ref or avatar_id, not both');
  }
  if (has(sel.persona) && (has(sel.avatar_ref) || has(sel.avatar_id))) {
    return reject(
      400,
      'avatar_ref_persona_exclusive',
      'send persona, avatar_id or avatar_ref, only one',
    );
  }
  if (has(sel.avatar_version_id) && !has(sel.avatar_id)) {
    return reject(
      400,
      'invalid_request',
      'avatar_version_id pins a version of avatar_id',
      'avatar_version_id: needs avatar_id',
    );
  }
  let avatar: AvatarRow | undefined;
  let version: VersionRow | undefined;
  if (has(sel.persona)) {
    if (!loadPersonas(ctx.fixturesDir).get(sel.persona!)) return notFound(`persona ${sel.persona}`);
    avatar = getAvatarRow(db, stockAvatarId(sel.persona!));
    if (!avatar) return notFound(`persona ${sel.persona}`);
  } else if (has(sel.avatar_ref)) {
    version = getVersionRow(db, sel.avatar_ref!);
    avatar = version ? getAvatarRow(db, version.avatar_id) : undefined;
    if (!version || !avatar || !visible(avatar, sel.workspaceId) || avatar.deleted_at !== null)
      return notFound(`avatar version ${sel.avatar_ref}`);
    if (version.published_at === null)
      return reject(400, 'version_not_published', 'that version has no face yet: upload it first');
  } else if (has(sel.avatar_id)) {
    avatar = getAvatarRow(db, sel.avatar_id!);
    if (!avatar || !visible(avatar, sel.workspaceId) || avatar.deleted_at !== null)
      return notFound(`avatar ${sel.avatar_id}`);
    if (has(sel.avatar_version_id)) {
      version = getVersionRow(db, sel.avatar_version_id!);
      if (!version || version.avatar_id !== avatar.id)
        return notFound(`version ${sel.avatar_version_id} of avatar ${avatar.id}`);
      if (version.published_at === null)
        return reject(
          400,
          'version_not_published',
          'that version has no face yet: upload it first',
        );
    }
  } else {
    return reject(
      400,
      'invalid_request',
      'one of persona, avatar_id or avatar_ref is required',
      'persona: required',
    );
  }
  if (!version) {
    version = avatar.current_version_id ? getVersionRow(db, avatar.current_version_id) : undefined;
    if (!version || version.published_at === null)
      return reject(400, 'avatar_not_published', 'the avatar has no published version yet');
  }
  avatar = ensureProfiles(ctx, avatar);
  const persona = version.source_persona
    ? loadPersonas(ctx.fixturesDir).get(version.source_persona)
    : undefined;
  const idle = idleMediaSql(db).getIdleMediaStatusBlobByVersionId.get(version.id) as
    | { status: 'missing' | 'building' | 'ready'; blob_key: string | null }
    | undefined;
  const idleKey = idle?.status === 'ready' ? idle.blob_key : null;
  // The avatar row is already read and its profiles seeded: not read again (the mint's hot path).
  const def = profileOf(ctx, avatar);
  return {
    ok: true,
    value: {
      avatar: {
        id: avatar.id,
        workspace_id: avatar.workspace_id,
        name: avatar.name,
        kind: avatar.kind,
        stock: avatar.workspace_id === STOCK_WORKSPACE_ID,
        region_tag: avatar.region_tag,
        assets_status: avatar.assets_status,
        default_profile_id: avatar.default_profile_id,
      },
      version: {
        id: version.id,
        version_number: version.version_number,
        persona: version.source_persona,
        persona_voice: persona?.voice ?? null,
        face: media(ctx, version.image_blob_key, version.image_type),
        extra_faces: JSON.parse(version.face_blob_keys) as string[],
        voice: withVoice(
          media(ctx, version.voice_blob_key, version.voice_type),
          version.voice_seconds,
          version.voice_ref_text,
        ),
        system_prompt: version.system_prompt,
        backstory: version.backstory,
        description: version.description,
        config: version.config_json ? (JSON.parse(version.config_json) as ConfigGroup) : null,
        language: version.native_language,
      },
      idle: {
        status: idle?.status ?? 'missing',
        blob_key: idleKey,
        path: idleKey ? blobPath(ctx, idleKey) : null,
      },
      defaultProfile: def.ok ? def.value : { profile: null, source: 'none' },
    },
  };
}

function media(ctx: EmulatorContext, key: string | null, type: string | null): StoredMedia | null {
  return key && type ? { blob_key: key, content_type: type, path: blobPath(ctx, key) } : null;
}

function withVoice(m: StoredMedia | null, seconds: number | null, refText: string | null) {
  return m ? { ...m, seconds, ref_text: refText } : null;
}

export function resolveProfile(
  ctx: EmulatorContext,
  avatarId: string,
  profileId?: string,
): Resolution<ResolvedProfile> {
  const avatar = getAvatarRow(ctx.db, avatarId);
  if (!avatar) return notFound(`avatar ${avatarId}`);
  return profileOf(ctx, ensureProfiles(ctx, avatar), profileId);
}

/** `resolveProfile` of an avatar row already read, its profiles seeded (`ensureProfiles`). */
function profileOf(
  ctx: EmulatorContext,
  a: AvatarRow,
  profileId?: string,
): Resolution<ResolvedProfile> {
  const { db } = ctx;
  const id = profileId ?? a.default_profile_id;
  if (!id) return { ok: true, value: { profile: null, source: 'none' } };
  const row = profileSql(db).getLiveAvatarProfileById.get(id) as ProfileRow | undefined;
  if (!row || row.avatar_id !== a.id) {
    return profileId
      ? reject(400, 'profile_mismatch', `profile ${profileId} does not belong to avatar ${a.id}`)
      : { ok: true, value: { profile: null, source: 'none' } };
  }
  let config: ConfigGroup | null = null;
  try {
    config = row.config_json ? (JSON.parse(row.config_json) as ConfigGroup) : null;
  } catch {
    config = null;
  }
  return {
    ok: true,
    value: {
      profile: {
        id: row.id,
        hash: row.hash,
        hash_short: row.hash_short,
        system_prompt: row.system_prompt,
        backstory: row.backstory,
        tools: parseStoredTools(row.tools_json),
        config,
      },
      source: profileId ? 'param' : 'default',
    },
  };
}

export function resolveVoiceRef(
  ctx: EmulatorContext,
  workspaceId: string | null,
  voiceVersionId: string,
): Resolution<ResolvedVoice> {
  const row = voiceSql(ctx.db).getVoiceVersionWithVoice.get(voiceVersionId) as
    | {
        id: string;
        voice_id: string;
        workspace_id: string;
        voice_deleted: number | null;
        sample_blob_key: string | null;
        sample_type: string | null;
        sample_seconds: number | null;
        ref_text: string | null;
        external_voice_id: string | null;
      }
    | undefined;
  if (
    !row ||
    row.workspace_id !== workspaceId ||
    row.voice_deleted !== null ||
    !row.sample_blob_key ||
    !row.sample_type
  ) {
    return notFound(`voice version ${voiceVersionId}`);
  }
  return {
    ok: true,
    value: {
      voice_id: row.voice_id,
      version_id: row.id,
      sample: {
        ...media(ctx, row.sample_blob_key, row.sample_type)!,
        seconds: row.sample_seconds,
        ref_text: row.ref_text,
      },
      external_voice_id: row.external_voice_id,
    },
  };
}
