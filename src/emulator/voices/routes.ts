/**
 * Voice routes of spec 4.8 (both shapes). The routes the spec leaves "not shown" (get,
 * update, delete, version routes, the sample upload) follow the avatar routes' pattern;
 * docs/fidelity.md has one row each.
 */
import {
  createVoice,
  createVoiceVersion,
  createVoiceVersionWs,
  createVoiceWs,
  deleteVoice,
  deleteVoiceWs,
  downloadVoiceSample,
  downloadVoiceSampleWs,
  getVoice,
  getVoiceWs,
  listVoices,
  listVoiceVersions,
  listVoiceVersionsWs,
  listVoicesWs,
  updateVoice,
  updateVoiceWs,
  uploadVoiceSample,
  uploadVoiceSampleWs,
} from '../../contract/operations/voices.js';
import { fillPath } from '../../contract/operation.js';
import { STOCK_WORKSPACE_ID } from '../../contract/resources/avatar.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { serveBytes } from '../gallery/routes.js';
import { ApiError } from '../../server/api-error.js';
import { reply } from '../http/router.js';
import { extensionOf, putBlob, readBlob } from '../avatars/blobs.js';
import { implementBoth } from '../avatars/both-shapes.js';
import { checkVoiceSample, refTextHeader } from '../avatars/media-checks.js';
import { requireCustomAvatars, stockReadOnly, targetWorkspace } from '../avatars/store.js';
import {
  externalVoiceId,
  readableVoice,
  toVoice,
  toVoiceVersion,
  voiceVersionOf,
  writableVoice,
  type VoiceRow,
  type VoiceVersionRow,
} from './store.js';
import { voiceSql } from './sql.js';

export function registerVoices(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;
  const now = () => unixSeconds(ctx.clock);
  const voiceRow = (id: string) => voiceSql(db).getVoicesById.get(id) as VoiceRow;

  implementBoth(app, ctx, [listVoices, listVoicesWs], ({ auth, query }, wsId) => {
    // The stock workspace has no voice rows: stock voices travel with the stock avatars.
    if (wsId === STOCK_WORKSPACE_ID) return { data: [] };
    const ws = targetWorkspace(db, auth, wsId, query.workspace_id);
    const rows = voiceSql(db).listVoicesByWorkspaceId.all(ws.id);
    return { data: (rows as VoiceRow[]).map(toVoice) };
  });

  implementBoth(app, ctx, [createVoice, createVoiceWs], ({ auth, query, body }, wsId) => {
    if (wsId === STOCK_WORKSPACE_ID) throw stockReadOnly();
    const ws = targetWorkspace(db, auth, wsId, query.workspace_id);
    const id = ctx.ids.uuid();
    voiceSql(db).insertVoices.run(id, ws.id, body.name, body.kind, now(), now());
    return reply(201, toVoice(voiceRow(id)));
  });

  implementBoth(app, ctx, [getVoice, getVoiceWs], ({ auth, params }, wsId) =>
    toVoice(readableVoice(db, auth, params.voiceId, wsId)),
  );

  implementBoth(app, ctx, [updateVoice, updateVoiceWs], ({ auth, params, body }, wsId) => {
    const v = writableVoice(db, auth, params.voiceId, wsId);
    voiceSql(db).setVoicesNameById.run(body.name, now(), v.id);
    return toVoice(voiceRow(v.id));
  });

  implementBoth(app, ctx, [deleteVoice, deleteVoiceWs], ({ auth, params }, wsId) => {
    const v = readableVoice(db, auth, params.voiceId, wsId);
    if (v.deleted_at === null) voiceSql(db).setVoicesDeletedAtById.run(now(), now(), v.id);
    return toVoice(voiceRow(v.id));
  });

  implementBoth(app, ctx, [listVoiceVersions, listVoiceVersionsWs], ({ auth, params }, wsId) => {
    const v = readableVoice(db, auth, params.voiceId, wsId);
    const rows = voiceSql(db).listVoiceVersionsByVoiceId.all(v.id);
    return { data: (rows as VoiceVersionRow[]).map(toVoiceVersion) };
  });

  implementBoth(
    app,
    ctx,
    [createVoiceVersion, createVoiceVersionWs],
    ({ auth, params, body }, wsId) => {
      const v = writableVoice(db, auth, params.voiceId, wsId);
      const id = ctx.ids.uuid();
      const n = (voiceSql(db).nextVoiceVersionNumber.get(v.id) as { n: number }).n;
      voiceSql(db).insertVoiceVersions.run(
        id,
        v.id,
        n,
        body.configJson ?? null,
        auth.userId,
        now(),
      );
      const row = voiceVersionOf(db, v, id);
      const uploadUrl = wsId
        ? fillPath(uploadVoiceSampleWs.path, { wsId, voiceId: v.id, versionId: id })
        : fillPath(uploadVoiceSample.path, { voiceId: v.id, versionId: id });
      return reply(201, { ...toVoiceVersion(row), upload_url: uploadUrl });
    },
  );

  // The sample is write-once (versions are immutable); its upload makes the version current.
  implementBoth(
    app,
    ctx,
    [uploadVoiceSample, uploadVoiceSampleWs],
    async ({ auth, params, raw, c }, wsId) => {
      const v = writableVoice(db, auth, params.voiceId, wsId);
      requireCustomAvatars(db, v.workspace_id);
      const sealed = () =>
        new ApiError(409, 'conflict', {
          message: 'this version already has its sample; create a new version',
        });
      if (voiceVersionOf(db, v, params.versionId).sample_blob_key) throw sealed();
      const refText = refTextHeader(c.req.header('x-ref-text'));
      const audio = await checkVoiceSample(raw, c.req.header('content-type'));
      // Re-read after the await: a concurrent upload may have filled the slot meanwhile.
      const ver = voiceVersionOf(db, v, params.versionId);
      if (ver.sample_blob_key) throw sealed();
      const key = `voices/${v.id}/${ver.id}/sample.${extensionOf[audio.mime]}`;
      putBlob(ctx, key, raw);
      db.transaction(() => {
        const claimed = voiceSql(db).setVoiceVersionsSampleBlobKeyById.run(
          key,
          audio.mime,
          audio.seconds,
          refText,
          v.kind === 'cloned' ? externalVoiceId(raw) : null,
          ver.id,
        ).changes;
        if (claimed === 0) throw sealed();
        voiceSql(db).setVoicesCurrentVersionIdById.run(ver.id, now(), v.id);
      })();
      return toVoiceVersion(voiceVersionOf(db, v, ver.id));
    },
  );

  implementBoth(
    app,
    ctx,
    [downloadVoiceSample, downloadVoiceSampleWs],
    ({ auth, params, c }, wsId) => {
      const ver = voiceVersionOf(
        db,
        readableVoice(db, auth, params.voiceId, wsId),
        params.versionId,
      );
      const bytes = ver.sample_blob_key ? readBlob(ctx, ver.sample_blob_key) : null;
      if (!bytes || !ver.sample_type)
        throw new ApiError(404, 'not_found', { message: 'sample not uploaded' });
      return serveBytes(c.req.header('range'), bytes, ver.sample_type);
    },
  );
}
