/**
 * Avatars and their immutable versions (spec 2 "Avatar", "AvatarVersion"; spec 4.7).
 * Fields the spec does not list on a version (the other create-body fields, the voice
 * blob, extra faces, `published_at`) are reported too, so a client can see what was
 * sealed; docs/fidelity.md records them.
 */
import { z } from 'zod';
import { named } from '../registry.js';
import { Limits } from '../limits.js';
import { textOfAtMost, UnixSeconds, Uuid } from './common.js';

/** The stock workspace's literal id (spec 4.9). */
export const STOCK_WORKSPACE_ID = 'ws_stock';

/** A `{wsId}` of the explicit route shape: a workspace uuid or the stock workspace. */
export const WorkspaceRef = z
  .union([Uuid, z.literal(STOCK_WORKSPACE_ID)])
  .describe('workspace id, or ws_stock');

export const AssetsStatus = z.enum(['missing', 'building', 'ready']);
export type AssetsStatusValue = z.infer<typeof AssetsStatus>;

/**
 * Where a voice sample's transcript stands (ours, docs/fidelity.md): the emulator has no
 * speech recognizer, so without `X-Ref-Text` the transcript stays null and says so.
 */
export const Transcription = z.enum(['provided', 'unavailable']).nullable();
export type TranscriptionValue = z.infer<typeof Transcription>;

/** `provided` when a transcript is known, `unavailable` for a sample without one, else null. */
export function transcriptionOf(
  refText: string | null,
  sampleKey: string | null,
): TranscriptionValue {
  return refText !== null ? 'provided' : sampleKey !== null ? 'unavailable' : null;
}

/** Avatar `status` values (spec: not shown; ours, docs/fidelity.md). */
export const AvatarStatus = z.enum(['draft', 'active', 'deleted']);

export const AvatarSchema = named(
  'Avatar',
  z.object({
    id: Uuid,
    workspace_id: z.string().describe('workspace uuid, or ws_stock for stock personas'),
    name: z.string(),
    kind: z.string().describe('stock (default on create) or custom'),
    current_version_id: Uuid.nullable(),
    status: z.string().describe('draft (nothing published), active, deleted'),
    deleted_at: UnixSeconds.nullable(),
    region_tag: z.string().describe('preferred edge region'),
    created_at: UnixSeconds,
    updated_at: UnixSeconds,
    assets_status: AssetsStatus.describe(
      'idle media of the current version: missing, building, ready',
    ),
    default_profile_id: Uuid.nullable(),
  }),
);
export type Avatar = z.infer<typeof AvatarSchema>;

export const AvatarVersionSchema = named(
  'AvatarVersion',
  z.object({
    id: Uuid,
    avatar_id: Uuid,
    version_number: z.number().int(),
    image_blob_key: z
      .string()
      .nullable()
      .describe('internal key of the face image; non-null once uploaded'),
    system_prompt: z.string().nullable(),
    config_json: z.string().nullable().describe('JSON-encoded config group'),
    created_by: Uuid.nullable(),
    created_at: UnixSeconds,
    description: z.string().nullable(),
    backstory: z.string().nullable(),
    native_language: z.string().nullable(),
    voice_ref_text: z.string().nullable(),
    voice_transcription: Transcription.describe(
      'provided: voice_ref_text came from the caller (X-Ref-Text or voice_ref_text); unavailable: a sample ' +
        'without a transcript (server-side transcription is not emulated); null: no sample, no transcript',
    ),
    voice_blob_key: z
      .string()
      .nullable()
      .describe('internal key of the voice sample; non-null once uploaded'),
    voice_seconds: z.number().nullable().describe('measured length of the voice sample'),
    face_blob_keys: z.array(z.string()).describe('additional faces (PUT .../faces)'),
    source_persona: z.string().nullable(),
    published_at: UnixSeconds.nullable().describe(
      'when the version became usable; null: not published',
    ),
  }),
);
export type AvatarVersion = z.infer<typeof AvatarVersionSchema>;

export const CreatedAvatarVersionSchema = named(
  'CreatedAvatarVersion',
  AvatarVersionSchema.extend({
    upload_url: z.string().describe('relative URL to PUT the face image to'),
  }),
);

export const CreateAvatarBody = z.object({
  name: z.string().min(1).describe('display name'),
  kind: z.string().min(1).default('stock').describe('stock (default) or custom'),
});

export const UpdateAvatarBody = z.object({ name: z.string().min(1).describe('new display name') });

/**
 * spec 4.7 version body, all optional. `config_json` is typed loosely so it reaches the
 * config-group validator and fails with `invalid_config_json` (spec 7), not `invalid_request`.
 */
export const CreateAvatarVersionBody = z.object({
  system_prompt: textOfAtMost(Limits.contextSystemPromptChars)
    .nullable()
    .optional()
    .describe('behaviour prompt sealed into the version'),
  config_json: z.unknown().optional().describe('config group (spec 2) object'),
  description: textOfAtMost(4_096)
    .nullable()
    .optional()
    .describe('short description of the avatar'),
  backstory: textOfAtMost(Limits.contextBackstoryChars)
    .nullable()
    .optional()
    .describe('backstory sealed into the version'),
  native_language: z
    .string()
    .min(1)
    .max(35)
    .nullable()
    .optional()
    .describe('native language (BCP-47 tag)'),
  voice_ref_text: textOfAtMost(4_096)
    .nullable()
    .optional()
    .describe('transcript of the voice sample (or send X-Ref-Text with it)'),
  inherit_image: z.boolean().optional().describe('carry the current face image and voice forward'),
  source_persona: z
    .string()
    .min(1)
    .optional()
    .describe('base the version on a stock face and voice'),
});

export const AvatarListQuery = z.object({
  workspace_id: Uuid.optional().describe('only for keys that are not workspace-bound'),
  include_deleted: z.enum(['true', 'false']).optional().describe('also list soft-deleted avatars'),
});

export const WorkspaceQuery = z.object({
  workspace_id: Uuid.optional().describe('only for keys that are not workspace-bound'),
});

export const VersionQuery = z.object({
  version: Uuid.optional().describe('a version id; default: the current version'),
});
