/**
 * Profiles (spec 2 "Profile", spec 4.9): append-only, deduplicated by a content hash over
 * the four text fields. The hash is SHA-256 over the RFC 8785 canonical JSON of
 * `{ system_prompt, backstory, tools_json, config_json }` (absent fields as null), so key
 * order never matters; `hash_short` is its first 12 hex digits.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Profile } from '../../contract/resources/profile.js';
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import { getAvatarRow, getVersionRow, isStock, type AvatarRow } from '../avatars/store.js';
import { uuidV5 } from '../avatars/stock.js';
import { avatarSql } from '../avatars/sql.js';
import { profileSql } from './sql.js';

export interface ProfileRow {
  id: string;
  avatar_id: string;
  hash: string;
  hash_short: string;
  system_prompt: string | null;
  backstory: string | null;
  tools_json: string | null;
  config_json: string | null;
  created_at: number;
  created_by: string;
  seq: number;
  deleted_at: number | null;
}

export interface ProfileContent {
  system_prompt: string | null;
  backstory: string | null;
  tools_json: Record<string, unknown> | null;
  config_json: Record<string, unknown> | null;
}

export const HASH_SHORT_LENGTH = 12;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The path of the first string (value or key) in `value` that is not well-formed Unicode
 * (a lone surrogate, legal in JSON text as `"\ud800"`), or null. The content hash is
 * defined over RFC 8785 canonical JSON, which cannot encode such a string, so a profile
 * holding one is refused (400 `invalid_request`) instead of being hashed. `value` has
 * passed the validators, so its nesting is bounded.
 */
export function illFormedText(value: unknown, path: string): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const bad = illFormedText(value[i], `${path}.${i}`);
      if (bad) return bad;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (LONE_SURROGATE.test(k)) return `${path}.${k}`;
      const bad = illFormedText(v, `${path}.${k}`);
      if (bad) return bad;
    }
  }
  return null;
}

export function contentHash(c: ProfileContent): string {
  const canonical = canonicalize({
    system_prompt: c.system_prompt,
    backstory: c.backstory,
    tools_json: c.tools_json,
    config_json: c.config_json,
  })!;
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

const bytes = (s: string | null) => (s === null ? 0 : Buffer.byteLength(s, 'utf8'));

export function sizesOf(r: ProfileRow) {
  return {
    system_prompt: bytes(r.system_prompt),
    backstory: bytes(r.backstory),
    tools_json: bytes(r.tools_json),
    config_json: bytes(r.config_json),
  };
}

export function toSummary(r: ProfileRow, defaultId: string | null) {
  return {
    id: r.id,
    hash: r.hash,
    hash_short: r.hash_short,
    created_at: r.created_at,
    created_by: r.created_by,
    is_default: r.id === defaultId,
    sizes: sizesOf(r),
  };
}

export function toProfile(r: ProfileRow, defaultId: string | null): Profile {
  return {
    ...toSummary(r, defaultId),
    avatar_id: r.avatar_id,
    system_prompt: r.system_prompt,
    backstory: r.backstory,
    tools_json:
      r.tools_json === null ? null : (JSON.parse(r.tools_json) as Record<string, unknown>),
    config_json:
      r.config_json === null ? null : (JSON.parse(r.config_json) as Record<string, unknown>),
  };
}

export const liveProfiles = (db: Db, avatarId: string) =>
  profileSql(db).listAvatarProfilesByAvatarId.all(avatarId) as ProfileRow[];

export function findProfile(db: Db, avatarId: string, profileId: string): ProfileRow {
  const r = profileSql(db).getAvatarProfilesByIdAndAvatarId.get(profileId, avatarId) as
    | ProfileRow
    | undefined;
  if (!r) throw new ApiError(404, 'not_found', { message: `profile ${profileId} not found` });
  return r;
}

/** Insert a profile row; the caller has checked that no live row has this hash. */
export function insertProfile(
  ctx: EmulatorContext,
  avatarId: string,
  c: ProfileContent,
  createdBy: string,
  id?: string,
): ProfileRow {
  const hash = contentHash(c);
  const pid = id ?? ctx.ids.uuid();
  const seq = (profileSql(ctx.db).nextProfileSeq.get(avatarId) as { n: number }).n;
  profileSql(ctx.db).insertAvatarProfiles.run(
    pid,
    avatarId,
    hash,
    hash.slice(0, HASH_SHORT_LENGTH),
    c.system_prompt,
    c.backstory,
    c.tools_json === null ? null : canonicalize(c.tools_json)!,
    c.config_json === null ? null : canonicalize(c.config_json)!,
    unixSeconds(ctx.clock),
    createdBy,
    seq,
  );
  return profileSql(ctx.db).getAvatarProfilesById.get(pid) as ProfileRow;
}

/**
 * spec 4.9: avatars created before profiles get profile 1 synthesized lazily from the
 * published version's text, on first read or mint. Here: the first profile operation or
 * mint on an avatar that has a published version and no profile yet. The synthesized
 * profile is the default; its id is name-based so a stock avatar's profile 1 is stable.
 * Returns the avatar row as it is afterwards.
 */
export function ensureProfiles(ctx: EmulatorContext, avatar: AvatarRow): AvatarRow {
  if (avatar.profiles_seeded) return avatar;
  const { db } = ctx;
  const version = avatar.current_version_id
    ? getVersionRow(db, avatar.current_version_id)
    : undefined;
  if (!version || version.published_at === null) return avatar;
  db.transaction(() => {
    const fresh = getAvatarRow(db, avatar.id)!;
    if (fresh.profiles_seeded) return;
    if (liveProfiles(db, avatar.id).length === 0) {
      const content: ProfileContent = {
        system_prompt: version.system_prompt,
        backstory: version.backstory,
        tools_json: null,
        config_json: version.config_json
          ? (JSON.parse(version.config_json) as Record<string, unknown>)
          : null,
      };
      const id = uuidV5(`profile:${avatar.id}:1`);
      const p = insertProfile(ctx, avatar.id, content, 'system', id);
      avatarSql(db).setAvatarsDefaultProfileIdKeepUpdatedAt.run(p.id, avatar.id);
    }
    avatarSql(db).setAvatarsProfilesSeededById.run(avatar.id);
  })();
  return getAvatarRow(db, avatar.id)!;
}

export { isStock };
