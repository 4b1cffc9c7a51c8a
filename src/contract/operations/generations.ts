/**
 * One-shot generations (spec 4.10, errors spec 7 "Speak"), scope `generations:write`.
 * speak and design read their JSON body themselves (`rawBody` with the JSON type): speak
 * carries media as data URIs, far over the 1 MiB JSON limit, and both answer a missing
 * field with the spec's `missing_fields` rather than the generic `invalid_request`. The
 * `body` schema documents the request (OpenAPI, client types, generated CLI flags).
 */
import { defineOperation } from '../operation.js';
import { ErrorBodySchema } from '../resources/common.js';
import {
  DesignBody,
  DesignResponse,
  GenerationLimits,
  PrebuildBody,
  PrebuildResponse,
  SpeakBody,
} from '../resources/generations.js';

const generationsWrite = { anyOf: ['generations:write'] } as const;
const json = ['application/json'] as const;

export const speak = defineOperation({
  id: 'generations.speak',
  method: 'post',
  path: '/api/v1/speak',
  summary: 'Text + face + voice reference gives a lip-synced MP4 (synchronous)',
  auth: generationsWrite,
  body: SpeakBody,
  rawBody: { contentTypes: json, maxBytes: GenerationLimits.speakBodyBytes },
  responses: {
    200: {
      description:
        'The video (H.264 + AAC, faststart MP4); duration follows the synthesized speech',
      contentType: 'video/mp4',
      headers: {
        'X-Clone-Ms': 'voice preparation time (ms)',
        'X-Gen-Ms': 'speech + video generation time (ms)',
        'X-Total-Ms': 'whole request (ms)',
        'X-Duration': 'video duration (seconds)',
        'X-Box-Id': 'the box whose render cell rendered it',
      },
    },
    400: {
      description: 'invalid_json, missing_fields, workspace_id_required, invalid_request',
      schema: ErrorBodySchema,
    },
    403: {
      description: 'forbidden: lacks generations:write or workspace membership',
      schema: ErrorBodySchema,
    },
    429: {
      description: 'at_capacity: every render cell is busy (Retry-After)',
      schema: ErrorBodySchema,
      headers: { 'Retry-After': 'seconds' },
    },
    502: { description: 'render_failed: TTS or video failure', schema: ErrorBodySchema },
    503: { description: 'no_box_available: no healthy box', schema: ErrorBodySchema },
  },
  cli: { group: 'generations', verb: 'speak' },
});

export const design = defineOperation({
  id: 'generations.design',
  method: 'post',
  path: '/api/v1/design',
  summary: 'A voice described in words says the text (24 kHz mono WAV, base64)',
  auth: generationsWrite,
  body: DesignBody,
  rawBody: { contentTypes: json, maxBytes: 1024 * 1024 },
  responses: {
    200: { description: 'The audio and its timings', schema: DesignResponse },
    400: { description: 'invalid_json, missing_fields, invalid_request', schema: ErrorBodySchema },
    502: { description: 'render_failed: the synthesizer failed', schema: ErrorBodySchema },
  },
  cli: { group: 'generations', verb: 'design' },
});

export const prebuild = defineOperation({
  id: 'generations.prebuild',
  method: 'post',
  path: '/api/v1/prebuild',
  summary: 'Warm the idle-motion cache of an avatar version on every live box',
  auth: generationsWrite,
  body: PrebuildBody,
  responses: {
    202: { description: 'Per-box status', schema: PrebuildResponse },
    400: {
      description: 'invalid_json, invalid_request, version_not_published',
      schema: ErrorBodySchema,
    },
    404: { description: 'not_found: no such version for this key', schema: ErrorBodySchema },
  },
  cli: { group: 'generations', verb: 'prebuild' },
});

export const generationOperations = [speak, design, prebuild];
