/** Profile routes of spec 4.9 (both shapes). */
import {
  createProfile,
  createProfileWs,
  deleteProfile,
  deleteProfileWs,
  getProfile,
  getProfileWs,
  listProfiles,
  listProfilesWs,
  setDefaultProfile,
  setDefaultProfileWs,
} from '../../contract/operations/profiles.js';
import { validateConfig } from '../../contract/validators/config.js';
import { validateTools } from '../../contract/validators/tools.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { reply } from '../http/router.js';
import { throwIfInvalid } from '../http/validation.js';
import { implementBoth } from '../avatars/both-shapes.js';
import {
  getAvatarRow,
  readableAvatar,
  requireCustomAvatars,
  writableAvatar,
} from '../avatars/store.js';
import {
  contentHash,
  ensureProfiles,
  illFormedText,
  findProfile,
  insertProfile,
  liveProfiles,
  toProfile,
  toSummary,
  type ProfileRow,
} from './store.js';
import { avatarSql } from '../avatars/sql.js';
import { profileSql } from './sql.js';

export function registerProfiles(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;

  const created = (r: ProfileRow, defaultId: string | null, isNew: boolean) => {
    const { sizes: _sizes, ...summary } = toSummary(r, defaultId);
    return { ...summary, avatar_id: r.avatar_id, created: isNew };
  };

  implementBoth(app, ctx, [createProfile, createProfileWs], ({ auth, params, body }, wsId) => {
    let avatar = writableAvatar(db, auth, params.avatarId, wsId);
    requireCustomAvatars(db, avatar.workspace_id);
    const tools =
      body.tools_json === undefined || body.tools_json === null
        ? null
        : (throwIfInvalid(validateTools(body.tools_json, { field: 'tools_json' })),
          body.tools_json as Record<string, unknown>);
    // spec 2: {}, {key: null} and absent config are identical, so all three store null.
    const config = throwIfInvalid(validateConfig(body.config_json, 'profile'));
    const content = {
      system_prompt: body.system_prompt ?? null,
      backstory: body.backstory ?? null,
      tools_json: tools,
      config_json: Object.keys(config).length ? (config as Record<string, unknown>) : null,
    };
    for (const [field, value] of Object.entries(content)) {
      const bad = illFormedText(value, field);
      if (bad) {
        throw new ApiError(400, 'invalid_request', {
          message: 'profile text must be well-formed Unicode',
          detail: `${bad}: not well-formed Unicode (lone surrogate)`,
        });
      }
    }
    avatar = ensureProfiles(ctx, avatar);
    const hash = contentHash(content);
    const result = db.transaction(() => {
      const existing = profileSql(db).getAvatarProfilesByAvatarIdAndHash.get(avatar.id, hash) as
        | ProfileRow
        | undefined;
      const row = existing ?? insertProfile(ctx, avatar.id, content, auth.userId);
      const current = getAvatarRow(db, avatar.id)!;
      // A first profile is the default even without set_default: there is nothing else to fall back on.
      if (body.set_default === true || current.default_profile_id === null) {
        avatarSql(db).setAvatarsDefaultProfileIdById.run(row.id, unixSeconds(ctx.clock), avatar.id);
      }
      return { row, isNew: !existing };
    })();
    const defaultId = getAvatarRow(db, avatar.id)!.default_profile_id;
    return reply(result.isNew ? 201 : 200, created(result.row, defaultId, result.isNew));
  });

  implementBoth(app, ctx, [listProfiles, listProfilesWs], ({ auth, params }, wsId) => {
    const avatar = ensureProfiles(ctx, readableAvatar(db, auth, params.avatarId, wsId));
    return {
      data: liveProfiles(db, avatar.id).map((r) => toSummary(r, avatar.default_profile_id)),
      default_profile_id: avatar.default_profile_id,
    };
  });

  implementBoth(app, ctx, [getProfile, getProfileWs], ({ auth, params }, wsId) => {
    const avatar = ensureProfiles(ctx, readableAvatar(db, auth, params.avatarId, wsId));
    return toProfile(findProfile(db, avatar.id, params.profileId), avatar.default_profile_id);
  });

  // spec 3 "Profile default": moves default_profile_id; also the rollback path.
  implementBoth(app, ctx, [setDefaultProfile, setDefaultProfileWs], ({ auth, params }, wsId) => {
    const avatar = writableAvatar(db, auth, params.avatarId, wsId);
    requireCustomAvatars(db, avatar.workspace_id);
    ensureProfiles(ctx, avatar);
    const p = findProfile(db, avatar.id, params.profileId);
    avatarSql(db).setAvatarsDefaultProfileIdById.run(p.id, unixSeconds(ctx.clock), avatar.id);
    return {
      ok: true as const,
      avatar_id: avatar.id,
      default_profile_id: p.id,
      hash_short: p.hash_short,
    };
  });

  // Deleting hides the row (it stays for sessions that froze it); the same content can be appended again.
  implementBoth(app, ctx, [deleteProfile, deleteProfileWs], ({ auth, params }, wsId) => {
    const avatar = ensureProfiles(ctx, writableAvatar(db, auth, params.avatarId, wsId));
    requireCustomAvatars(db, avatar.workspace_id);
    const p = findProfile(db, avatar.id, params.profileId);
    if (avatar.default_profile_id === p.id) {
      throw new ApiError(409, 'profile_is_default', {
        message: 'make another profile the default first',
      });
    }
    profileSql(db).setAvatarProfilesDeletedAtById.run(unixSeconds(ctx.clock), p.id);
    return reply(204);
  });
}
