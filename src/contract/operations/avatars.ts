/**
 * Avatars and versions (spec 4.7), in both route shapes. Routes the spec leaves "not
 * shown" (get, update, delete of an avatar; the faces payload; the PUT responses; the
 * media downloads) are ours and recorded in docs/fidelity.md.
 */
import { Limits } from '../limits.js';
import { listOf, Uuid } from '../resources/common.js';
import {
  AvatarListQuery,
  AvatarSchema,
  AvatarVersionSchema,
  CreateAvatarBody,
  CreateAvatarVersionBody,
  CreatedAvatarVersionSchema,
  UpdateAvatarBody,
  WorkspaceQuery,
} from '../resources/avatar.js';
import { twoShapes } from './two-shapes.js';

export const avatarsRead = { anyOf: ['avatars:read', 'user:read'] } as const;
export const avatarsWrite = { anyOf: ['avatars:write', 'user:write'] } as const;
/** spec 4.7 names the scope of version creation: `avatars:write` alone (`user:write` does not do). */
export const versionsWrite = { anyOf: ['avatars:write'] } as const;

export const FACE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** `audio/wav` per spec 4.7; `audio/x-wav` and `audio/wave` are common aliases of the same type. */
export const VOICE_TYPES = ['audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/wave'] as const;

const A = { avatarId: Uuid };
const AV = { avatarId: Uuid, versionId: Uuid };

export const [listAvatars, listAvatarsWs] = twoShapes({
  id: 'avatars.list',
  method: 'get',
  rel: '/avatars',
  summary: 'List avatars of the workspace (soft-deleted ones with include_deleted=true)',
  auth: avatarsRead,
  query: AvatarListQuery,
  responses: { 200: { description: 'Avatars', schema: listOf(AvatarSchema) } },
  cli: { group: 'avatars', verb: 'list' },
});

export const [createAvatar, createAvatarWs] = twoShapes({
  id: 'avatars.create',
  method: 'post',
  rel: '/avatars',
  summary: 'Create an avatar (kind defaults to stock); publish it by creating a version',
  auth: avatarsWrite,
  query: WorkspaceQuery,
  body: CreateAvatarBody,
  responses: { 201: { description: 'The avatar', schema: AvatarSchema } },
  cli: { group: 'avatars', verb: 'create' },
});

export const [getAvatar, getAvatarWs] = twoShapes({
  id: 'avatars.get',
  method: 'get',
  rel: '/avatars/{avatarId}',
  summary: 'Get an avatar (a soft-deleted one shows deleted_at)',
  auth: avatarsRead,
  params: A,
  responses: { 200: { description: 'The avatar', schema: AvatarSchema } },
  cli: { group: 'avatars', verb: 'get' },
});

export const [updateAvatar, updateAvatarWs] = twoShapes({
  id: 'avatars.update',
  method: 'patch',
  rel: '/avatars/{avatarId}',
  summary: 'Rename an avatar',
  auth: avatarsWrite,
  params: A,
  body: UpdateAvatarBody,
  responses: { 200: { description: 'The avatar', schema: AvatarSchema } },
  cli: { group: 'avatars', verb: 'update' },
});

export const [deleteAvatar, deleteAvatarWs] = twoShapes({
  id: 'avatars.delete',
  method: 'delete',
  rel: '/avatars/{avatarId}',
  summary: 'Soft-delete an avatar (sets deleted_at; repeating answers the same record)',
  auth: avatarsWrite,
  params: A,
  responses: { 200: { description: 'The deleted avatar', schema: AvatarSchema } },
  cli: { group: 'avatars', verb: 'delete' },
});

export const [listVersions, listVersionsWs] = twoShapes({
  id: 'versions.list',
  method: 'get',
  rel: '/avatars/{avatarId}/versions',
  summary: 'List the versions of an avatar, oldest first',
  auth: avatarsRead,
  params: A,
  responses: { 200: { description: 'Versions', schema: listOf(AvatarVersionSchema) } },
  cli: { group: 'versions', verb: 'list' },
});

export const [createVersion, createVersionWs] = twoShapes({
  id: 'versions.create',
  method: 'post',
  rel: '/avatars/{avatarId}/versions',
  summary:
    'Create an immutable version; PUT the face to upload_url (source_persona: ready at once)',
  description:
    'Publishing (becoming current_version_id): at once with source_persona; at once with inherit_image when the ' +
    'current version has an image; otherwise when the face image is uploaded.',
  auth: versionsWrite,
  params: A,
  body: CreateAvatarVersionBody,
  responses: {
    201: { description: 'The version and its upload_url', schema: CreatedAvatarVersionSchema },
  },
  cli: { group: 'versions', verb: 'create' },
});

export const [getVersion, getVersionWs] = twoShapes({
  id: 'versions.get',
  method: 'get',
  rel: '/avatars/{avatarId}/versions/{versionId}',
  summary: 'Get one version',
  auth: avatarsRead,
  params: AV,
  responses: { 200: { description: 'The version', schema: AvatarVersionSchema } },
  cli: { group: 'versions', verb: 'get' },
});

export const [uploadFace, uploadFaceWs] = twoShapes({
  id: 'versions.upload',
  method: 'put',
  rel: '/avatars/{avatarId}/versions/{versionId}/upload',
  summary:
    'Upload the face image (jpeg, png or webp by content; at most 10 MB); publishes the version',
  auth: avatarsWrite,
  params: AV,
  rawBody: { contentTypes: FACE_TYPES, maxBytes: Limits.faceImageBytes },
  responses: {
    200: { description: 'The version with image_blob_key set', schema: AvatarVersionSchema },
  },
});

export const [uploadVoice, uploadVoiceWs] = twoShapes({
  id: 'versions.voice',
  method: 'put',
  rel: '/avatars/{avatarId}/versions/{versionId}/voice',
  summary:
    'Upload the voice sample (mpeg or wav, at most 25 MB, 5 to 30 s); optional X-Ref-Text header',
  auth: avatarsWrite,
  params: AV,
  rawBody: { contentTypes: VOICE_TYPES, maxBytes: Limits.voiceSampleBytes },
  responses: {
    200: { description: 'The version with voice_blob_key set', schema: AvatarVersionSchema },
  },
});

export const [uploadExtraFace, uploadExtraFaceWs] = twoShapes({
  id: 'versions.faces',
  method: 'put',
  rel: '/avatars/{avatarId}/versions/{versionId}/faces',
  summary: 'Add one more face image (same rules as the face upload; at most 8 per version)',
  auth: avatarsWrite,
  params: AV,
  rawBody: { contentTypes: FACE_TYPES, maxBytes: Limits.faceImageBytes },
  responses: {
    200: {
      description: 'The version with the face added to face_blob_keys',
      schema: AvatarVersionSchema,
    },
  },
});

export const [downloadFace, downloadFaceWs] = twoShapes({
  id: 'versions.face',
  method: 'get',
  rel: '/avatars/{avatarId}/versions/{versionId}/upload',
  summary: 'Download the stored face image of a version',
  auth: avatarsRead,
  params: AV,
  responses: { 200: { description: 'The image as uploaded', contentType: 'image/*' } },
  cli: { group: 'versions', verb: 'face' },
});

export const [downloadVoice, downloadVoiceWs] = twoShapes({
  id: 'versions.voice-sample',
  method: 'get',
  rel: '/avatars/{avatarId}/versions/{versionId}/voice',
  summary: 'Download the stored voice sample of a version',
  auth: avatarsRead,
  params: AV,
  responses: { 200: { description: 'The audio as uploaded', contentType: 'audio/*' } },
  cli: { group: 'versions', verb: 'voice' },
});

export const [downloadIdle, downloadIdleWs] = twoShapes({
  id: 'versions.idle',
  method: 'get',
  rel: '/avatars/{avatarId}/versions/{versionId}/idle',
  summary:
    'The pre-rendered idle loop of a version (H.264 MP4, muted; supports Range); 404 until ready',
  auth: avatarsRead,
  params: AV,
  responses: {
    200: { description: 'Idle loop', contentType: 'video/mp4' },
    206: { description: 'Requested byte range', contentType: 'video/mp4' },
  },
  cli: { group: 'versions', verb: 'idle' },
});

export const avatarOperations = [
  listAvatars,
  listAvatarsWs,
  createAvatar,
  createAvatarWs,
  getAvatar,
  getAvatarWs,
  updateAvatar,
  updateAvatarWs,
  deleteAvatar,
  deleteAvatarWs,
  listVersions,
  listVersionsWs,
  createVersion,
  createVersionWs,
  getVersion,
  getVersionWs,
  uploadFace,
  uploadFaceWs,
  uploadVoice,
  uploadVoiceWs,
  uploadExtraFace,
  uploadExtraFaceWs,
  downloadFace,
  downloadFaceWs,
  downloadVoice,
  downloadVoiceWs,
  downloadIdle,
  downloadIdleWs,
];
