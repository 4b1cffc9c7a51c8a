/**
 * Version routes of spec 4.7 (both shapes): list, create, get, the three uploads and the
 * media downloads. When a version is published: docs/avatars.md.
 */
import {
  createVersion,
  createVersionWs,
  downloadFace,
  downloadFaceWs,
  downloadIdle,
  downloadIdleWs,
  downloadVoice,
  downloadVoiceWs,
  getVersion,
  getVersionWs,
  listVersions,
  listVersionsWs,
  uploadExtraFace,
  uploadExtraFaceWs,
  uploadFace,
  uploadFaceWs,
  uploadVoice,
  uploadVoiceWs,
} from '../../contract/operations/avatars.js';
import { fillPath } from '../../contract/operation.js';
import { validateConfig } from '../../contract/validators/config.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { serveBytes } from '../gallery/routes.js';
import { ApiError } from '../../server/api-error.js';
import { reply } from '../http/router.js';
import { throwIfInvalid } from '../http/validation.js';
import { extensionOf, personaBlobKey, putBlob, readBlob } from './blobs.js';
import { implementBoth } from './both-shapes.js';
import { checkFaceImage, checkVoiceSample, refTextHeader } from './media-checks.js';
import { publishVersion } from './publish.js';
import { personaOf } from './stock.js';
import {
  getVersionRow,
  readableAvatar,
  requireCustomAvatars,
  toVersion,
  touchAvatar,
  versionOf,
  writableAvatar,
  type VersionRow,
} from './store.js';
import { avatarSql } from './sql.js';
import { idleMediaSql } from '../idle-media/sql.js';

/** Ours (spec: faces payload not shown): at most this many additional faces per version. */
export const MAX_EXTRA_FACES = 8;

const sealed = (what: string) =>
  new ApiError(409, 'conflict', {
    message: `this version already has its ${what}; versions are immutable: create a new version`,
  });

export function registerVersions(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;

  implementBoth(app, ctx, [listVersions, listVersionsWs], ({ auth, params }, wsId) => {
    const a = readableAvatar(db, auth, params.avatarId, wsId);
    const rows = avatarSql(db).listAvatarVersionsByAvatarId.all(a.id) as VersionRow[];
    return { data: rows.map(toVersion) };
  });

  implementBoth(app, ctx, [getVersion, getVersionWs], ({ auth, params }, wsId) =>
    toVersion(versionOf(db, readableAvatar(db, auth, params.avatarId, wsId), params.versionId)),
  );

  implementBoth(app, ctx, [createVersion, createVersionWs], ({ auth, params, body }, wsId) => {
    const a = writableAvatar(db, auth, params.avatarId, wsId);
    const config = throwIfInvalid(validateConfig(body.config_json, 'profile'));
    if (body.source_persona !== undefined && body.inherit_image) {
      throw new ApiError(400, 'invalid_request', {
        detail: 'source_persona: cannot be combined with inherit_image',
      });
    }
    const persona =
      body.source_persona !== undefined ? personaOf(ctx, body.source_persona) : undefined;
    if (body.source_persona !== undefined && !persona) {
      throw new ApiError(400, 'invalid_request', {
        detail: `source_persona: unknown persona ${body.source_persona}`,
      });
    }
    const prev = a.current_version_id ? getVersionRow(db, a.current_version_id) : undefined;
    const inherit = body.inherit_image === true && !!prev?.image_blob_key;
    const id = ctx.ids.uuid();
    const now = unixSeconds(ctx.clock);
    const next = (avatarSql(db).nextAvatarVersionNumber.get(a.id) as { n: number }).n;
    const face = persona
      ? { key: personaBlobKey(persona.id, 'face.png'), type: 'image/png' }
      : inherit
        ? { key: prev!.image_blob_key, type: prev!.image_type }
        : { key: null, type: null };
    const voice = inherit
      ? {
          key: prev!.voice_blob_key,
          type: prev!.voice_type,
          seconds: prev!.voice_seconds,
          text: prev!.voice_ref_text,
        }
      : { key: null, type: null, seconds: null, text: null };
    const insert = avatarSql(db).insertAvatarVersions;
    // One transaction: the version row and, when it is ready at once, its publication.
    db.transaction(() => {
      insert.run(
        id,
        a.id,
        next,
        face.key,
        face.type,
        body.system_prompt ?? null,
        Object.keys(config).length ? JSON.stringify(config) : null,
        body.description ?? null,
        body.backstory ?? null,
        body.native_language ?? persona?.voiceLang ?? null,
        body.voice_ref_text ?? voice.text,
        voice.key,
        voice.type,
        voice.seconds,
        inherit ? prev!.face_blob_keys : '[]',
        persona?.id ?? (inherit ? prev!.source_persona : null),
        auth.userId,
        now,
      );
      // spec 4.7: source_persona is ready at once; inherit_image promotes when the previous version had an image.
      if (persona || inherit) publishVersion(ctx, a.id, id);
      else touchAvatar(ctx, a.id, now);
    })();
    const uploadUrl = wsId
      ? fillPath(uploadFaceWs.path, { wsId, avatarId: a.id, versionId: id })
      : fillPath(uploadFace.path, { avatarId: a.id, versionId: id });
    return reply(201, { ...toVersion(getVersionRow(db, id)!), upload_url: uploadUrl });
  });

  implementBoth(app, ctx, [uploadFace, uploadFaceWs], async ({ auth, params, raw, c }, wsId) => {
    const a = writableAvatar(db, auth, params.avatarId, wsId);
    requireCustomAvatars(db, a.workspace_id);
    if (versionOf(db, a, params.versionId).image_blob_key) throw sealed('face image');
    const mime = await checkFaceImage(raw, c.req.header('content-type'));
    // Re-read after the await: another upload may have filled the slot meanwhile. From here
    // on nothing awaits, so the check, the blob and the row change as one step.
    const v = versionOf(db, a, params.versionId);
    if (v.image_blob_key) throw sealed('face image');
    const key = `avatars/${a.id}/${v.id}/face.${extensionOf[mime]}`;
    putBlob(ctx, key, raw);
    db.transaction(() => {
      const claimed = avatarSql(db).setAvatarVersionsImageBlobKeyById.run(key, mime, v.id).changes;
      if (claimed === 0) throw sealed('face image');
      // The face is what a version needs to render: its upload publishes the version.
      publishVersion(ctx, a.id, v.id);
    })();
    return toVersion(getVersionRow(db, v.id)!);
  });

  implementBoth(app, ctx, [uploadVoice, uploadVoiceWs], async ({ auth, params, raw, c }, wsId) => {
    const a = writableAvatar(db, auth, params.avatarId, wsId);
    requireCustomAvatars(db, a.workspace_id);
    if (versionOf(db, a, params.versionId).voice_blob_key) throw sealed('voice sample');
    const refText = refTextHeader(c.req.header('x-ref-text'));
    const audio = await checkVoiceSample(raw, c.req.header('content-type'));
    // Re-read after the await (see the face upload): check, blob and row change as one step.
    const v = versionOf(db, a, params.versionId);
    if (v.voice_blob_key) throw sealed('voice sample');
    const key = `avatars/${a.id}/${v.id}/voice.${extensionOf[audio.mime]}`;
    putBlob(ctx, key, raw);
    db.transaction(() => {
      const claimed = avatarSql(db).setAvatarVersionsVoiceBlobKeyById.run(
        key,
        audio.mime,
        audio.seconds,
        refText,
        v.id,
      ).changes;
      if (claimed === 0) throw sealed('voice sample');
      touchAvatar(ctx, a.id, unixSeconds(ctx.clock));
    })();
    return toVersion(getVersionRow(db, v.id)!);
  });

  implementBoth(
    app,
    ctx,
    [uploadExtraFace, uploadExtraFaceWs],
    async ({ auth, params, raw, c }, wsId) => {
      const a = writableAvatar(db, auth, params.avatarId, wsId);
      requireCustomAvatars(db, a.workspace_id);
      const full = () =>
        new ApiError(409, 'conflict', {
          message: `at most ${MAX_EXTRA_FACES} additional faces per version`,
        });
      if (
        (JSON.parse(versionOf(db, a, params.versionId).face_blob_keys) as string[]).length >=
        MAX_EXTRA_FACES
      )
        throw full();
      const mime = await checkFaceImage(raw, c.req.header('content-type'));
      // Re-read after the await: a concurrent add may have taken the next slot.
      const v = versionOf(db, a, params.versionId);
      const faces = JSON.parse(v.face_blob_keys) as string[];
      if (faces.length >= MAX_EXTRA_FACES) throw full();
      const key = `avatars/${a.id}/${v.id}/faces/${faces.length + 1}.${extensionOf[mime]}`;
      putBlob(ctx, key, raw);
      avatarSql(db).setAvatarVersionsFaceBlobKeysById.run(JSON.stringify([...faces, key]), v.id);
      return toVersion(getVersionRow(db, v.id)!);
    },
  );

  const media = (
    key: string | null,
    type: string | null,
    what: string,
    range: string | undefined,
  ) => {
    const bytes = key ? readBlob(ctx, key) : null;
    if (!bytes || !type) throw new ApiError(404, 'not_found', { message: `${what} not uploaded` });
    return serveBytes(range, bytes, type);
  };

  implementBoth(app, ctx, [downloadFace, downloadFaceWs], ({ auth, params, c }, wsId) => {
    const v = versionOf(db, readableAvatar(db, auth, params.avatarId, wsId), params.versionId);
    return media(v.image_blob_key, v.image_type, 'face image', c.req.header('range'));
  });

  implementBoth(app, ctx, [downloadVoice, downloadVoiceWs], ({ auth, params, c }, wsId) => {
    const v = versionOf(db, readableAvatar(db, auth, params.avatarId, wsId), params.versionId);
    return media(v.voice_blob_key, v.voice_type, 'voice sample', c.req.header('range'));
  });

  implementBoth(app, ctx, [downloadIdle, downloadIdleWs], ({ auth, params, c }, wsId) => {
    const v = versionOf(db, readableAvatar(db, auth, params.avatarId, wsId), params.versionId);
    const m = idleMediaSql(db).getReadyIdleMediaBlobKey.get(v.id) as
      | { blob_key: string }
      | undefined;
    return media(
      m?.blob_key ?? null,
      'video/mp4',
      'idle media (not built yet)',
      c.req.header('range'),
    );
  });
}
