/** Voices and voice versions (spec 2 "Voice", "VoiceVersion"; spec 4.8). */
import { z } from 'zod';
import { named } from '../registry.js';
import { Transcription } from './avatar.js';
import { UnixSeconds, Uuid } from './common.js';

export const VoiceSchema = named(
  'Voice',
  z.object({
    id: Uuid,
    workspace_id: z.string(),
    name: z.string(),
    kind: z.string().describe('stock (default on create), cloned, ...'),
    current_version_id: Uuid.nullable(),
    status: z.string().describe('draft (no sample yet), active, deleted'),
    deleted_at: UnixSeconds.nullable(),
    region_tag: z.string(),
    created_at: UnixSeconds,
    updated_at: UnixSeconds,
  }),
);
export type Voice = z.infer<typeof VoiceSchema>;

export const VoiceVersionSchema = named(
  'VoiceVersion',
  z.object({
    id: Uuid,
    voice_id: Uuid,
    version_number: z.number().int(),
    sample_blob_key: z
      .string()
      .nullable()
      .describe('internal key of the sample audio; non-null once uploaded'),
    external_voice_id: z
      .string()
      .nullable()
      .describe('provider voice id (cloned voices, after the sample upload)'),
    created_by: Uuid.nullable(),
    created_at: UnixSeconds,
    config_json: z.string().nullable().describe('the configJson sent on create'),
    sample_seconds: z.number().nullable(),
    ref_text: z.string().nullable().describe('transcript of the sample (X-Ref-Text)'),
    transcription: Transcription.describe(
      'provided: ref_text came from X-Ref-Text; unavailable: a sample without a transcript (server-side ' +
        'transcription is not emulated); null: no sample yet',
    ),
  }),
);

export const CreatedVoiceVersionSchema = named(
  'CreatedVoiceVersion',
  VoiceVersionSchema.extend({
    upload_url: z.string().describe('relative URL to PUT the audio sample to'),
  }),
);

export const CreateVoiceBody = z.object({
  name: z.string().min(1),
  kind: z.string().min(1).default('stock'),
});
export const UpdateVoiceBody = z.object({ name: z.string().min(1) });
export const CreateVoiceVersionBody = z.object({
  configJson: z
    .string()
    .max(16_384)
    .refine((s) => {
      try {
        const v: unknown = JSON.parse(s);
        return typeof v === 'object' && v !== null && !Array.isArray(v);
      } catch {
        return false;
      }
    }, 'must be a JSON-encoded object')
    .optional()
    .describe('JSON config (string)'),
});
