/**
 * Voices and voice versions (spec 4.8), in both route shapes. Routes the spec leaves "not
 * shown" (get, update, delete; version routes; the sample upload) are ours and recorded in
 * docs/fidelity.md. Same scopes as avatars.
 */
import { Limits } from '../limits.js';
import { listOf, Uuid } from '../resources/common.js';
import { WorkspaceQuery } from '../resources/avatar.js';
import {
  CreatedVoiceVersionSchema,
  CreateVoiceBody,
  CreateVoiceVersionBody,
  UpdateVoiceBody,
  VoiceSchema,
  VoiceVersionSchema,
} from '../resources/voice.js';
import { avatarsRead, avatarsWrite, VOICE_TYPES } from './avatars.js';
import { twoShapes } from './two-shapes.js';

const V = { voiceId: Uuid };
const VV = { voiceId: Uuid, versionId: Uuid };

export const [listVoices, listVoicesWs] = twoShapes({
  id: 'voices.list',
  method: 'get',
  rel: '/voices',
  summary: 'List voices of the workspace',
  auth: avatarsRead,
  query: WorkspaceQuery,
  responses: { 200: { description: 'Voices', schema: listOf(VoiceSchema) } },
  cli: { group: 'voices', verb: 'list' },
});

export const [createVoice, createVoiceWs] = twoShapes({
  id: 'voices.create',
  method: 'post',
  rel: '/voices',
  summary: 'Create a voice (kind defaults to stock)',
  auth: avatarsWrite,
  query: WorkspaceQuery,
  body: CreateVoiceBody,
  responses: { 201: { description: 'The voice', schema: VoiceSchema } },
  cli: { group: 'voices', verb: 'create' },
});

export const [getVoice, getVoiceWs] = twoShapes({
  id: 'voices.get',
  method: 'get',
  rel: '/voices/{voiceId}',
  summary: 'Get a voice',
  auth: avatarsRead,
  params: V,
  responses: { 200: { description: 'The voice', schema: VoiceSchema } },
  cli: { group: 'voices', verb: 'get' },
});

export const [updateVoice, updateVoiceWs] = twoShapes({
  id: 'voices.update',
  method: 'patch',
  rel: '/voices/{voiceId}',
  summary: 'Rename a voice',
  auth: avatarsWrite,
  params: V,
  body: UpdateVoiceBody,
  responses: { 200: { description: 'The voice', schema: VoiceSchema } },
  cli: { group: 'voices', verb: 'update' },
});

export const [deleteVoice, deleteVoiceWs] = twoShapes({
  id: 'voices.delete',
  method: 'delete',
  rel: '/voices/{voiceId}',
  summary: 'Soft-delete a voice (sets deleted_at; repeating answers the same record)',
  auth: avatarsWrite,
  params: V,
  responses: { 200: { description: 'The deleted voice', schema: VoiceSchema } },
  cli: { group: 'voices', verb: 'delete' },
});

export const [listVoiceVersions, listVoiceVersionsWs] = twoShapes({
  id: 'voices.versions',
  method: 'get',
  rel: '/voices/{voiceId}/versions',
  summary: 'List the versions of a voice, oldest first',
  auth: avatarsRead,
  params: V,
  responses: { 200: { description: 'Versions', schema: listOf(VoiceVersionSchema) } },
  cli: { group: 'voices', verb: 'versions' },
});

export const [createVoiceVersion, createVoiceVersionWs] = twoShapes({
  id: 'voices.add-version',
  method: 'post',
  rel: '/voices/{voiceId}/versions',
  summary: 'Create a voice version; PUT the audio sample to upload_url',
  auth: avatarsWrite,
  params: V,
  body: CreateVoiceVersionBody,
  responses: {
    201: { description: 'The version and its upload_url', schema: CreatedVoiceVersionSchema },
  },
  cli: { group: 'voices', verb: 'add-version' },
});

export const [uploadVoiceSample, uploadVoiceSampleWs] = twoShapes({
  id: 'voices.upload-sample',
  method: 'put',
  rel: '/voices/{voiceId}/versions/{versionId}/sample',
  summary: 'Upload the sample (mpeg or wav, at most 25 MB, 5 to 30 s); makes the version current',
  auth: avatarsWrite,
  params: VV,
  rawBody: { contentTypes: VOICE_TYPES, maxBytes: Limits.voiceSampleBytes },
  responses: {
    200: { description: 'The version with sample_blob_key set', schema: VoiceVersionSchema },
  },
});

export const [downloadVoiceSample, downloadVoiceSampleWs] = twoShapes({
  id: 'voices.sample',
  method: 'get',
  rel: '/voices/{voiceId}/versions/{versionId}/sample',
  summary: 'Download the stored sample of a voice version',
  auth: avatarsRead,
  params: VV,
  responses: { 200: { description: 'The audio as uploaded', contentType: 'audio/*' } },
  cli: { group: 'voices', verb: 'sample' },
});

export const voiceOperations = [
  listVoices,
  listVoicesWs,
  createVoice,
  createVoiceWs,
  getVoice,
  getVoiceWs,
  updateVoice,
  updateVoiceWs,
  deleteVoice,
  deleteVoiceWs,
  listVoiceVersions,
  listVoiceVersionsWs,
  createVoiceVersion,
  createVoiceVersionWs,
  uploadVoiceSample,
  uploadVoiceSampleWs,
  downloadVoiceSample,
  downloadVoiceSampleWs,
];
