/** Avatar routes of spec 4.7 (both shapes). Versions: versions-routes.ts. */
import {
  createAvatar,
  createAvatarWs,
  deleteAvatar,
  deleteAvatarWs,
  getAvatar,
  getAvatarWs,
  listAvatars,
  listAvatarsWs,
  updateAvatar,
  updateAvatarWs,
} from '../../contract/operations/avatars.js';
import { STOCK_WORKSPACE_ID } from '../../contract/resources/avatar.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { reply } from '../http/router.js';
import { resumeIdleMedia } from '../idle-media/worker.js';
import { implementBoth } from './both-shapes.js';
import { seedStockAvatars } from './stock.js';
import {
  readableAvatar,
  stockReadOnly,
  targetWorkspace,
  toAvatar,
  writableAvatar,
  type AvatarRow,
} from './store.js';
import { registerVersions } from './versions-routes.js';
import { registerProfiles } from '../profiles/routes.js';
import { ensureProfiles } from '../profiles/store.js';
import { registerVoices } from '../voices/routes.js';
import { avatarSql } from './sql.js';

export function registerAvatars(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;
  seedStockAvatars(ctx);
  // spec 4.9: profile 1 is synthesized "on first read"; reading the avatar is a read, so
  // a published avatar never shows default_profile_id null and then another value.
  const shown = (row: AvatarRow) => toAvatar(ensureProfiles(ctx, row));

  implementBoth(app, ctx, [listAvatars, listAvatarsWs], ({ auth, query }, wsId) => {
    const ws = targetWorkspace(db, auth, wsId, query.workspace_id);
    const withDeleted = query.include_deleted === 'true';
    const sql = avatarSql(db);
    const rows = (
      withDeleted ? sql.listAvatarsWithDeletedByWorkspaceId : sql.listAvatarsByWorkspaceId
    ).all(ws.id) as AvatarRow[];
    return { data: rows.map((r) => shown(r)) };
  });

  implementBoth(app, ctx, [createAvatar, createAvatarWs], ({ auth, query, body }, wsId) => {
    if (wsId === STOCK_WORKSPACE_ID) throw stockReadOnly();
    const ws = targetWorkspace(db, auth, wsId, query.workspace_id);
    const id = ctx.ids.uuid();
    const now = unixSeconds(ctx.clock);
    avatarSql(db).insertAvatars.run(id, ws.id, body.name, body.kind, now, now);
    return reply(201, shown(readableAvatar(db, auth, id)));
  });

  implementBoth(app, ctx, [getAvatar, getAvatarWs], ({ auth, params }, wsId) =>
    shown(readableAvatar(db, auth, params.avatarId, wsId)),
  );

  implementBoth(app, ctx, [updateAvatar, updateAvatarWs], ({ auth, params, body }, wsId) => {
    const a = writableAvatar(db, auth, params.avatarId, wsId);
    avatarSql(db).setAvatarsNameById.run(body.name, unixSeconds(ctx.clock), a.id);
    return shown(readableAvatar(db, auth, a.id));
  });

  // Soft delete (issue 3): the row stays with deleted_at; repeating answers the same record.
  implementBoth(app, ctx, [deleteAvatar, deleteAvatarWs], ({ auth, params }, wsId) => {
    const a = readableAvatar(db, auth, params.avatarId, wsId);
    if (a.workspace_id === STOCK_WORKSPACE_ID) throw stockReadOnly();
    if (a.deleted_at === null) {
      const now = unixSeconds(ctx.clock);
      avatarSql(db).setAvatarsDeletedAtById.run(now, now, a.id);
    }
    return shown(readableAvatar(db, auth, a.id));
  });

  registerVersions(app, ctx);
  registerProfiles(app, ctx);
  registerVoices(app, ctx);
  resumeIdleMedia(ctx);
}
