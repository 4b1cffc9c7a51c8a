/** Profiles: the append-only, hash-deduplicated text layer of an avatar (spec 2, spec 4.9). */
import { z } from 'zod';
import { named } from '../registry.js';
import { Limits } from '../limits.js';
import { textOfAtMost, UnixSeconds, Uuid } from './common.js';

export const ProfileSizes = z
  .object({
    system_prompt: z.number().int(),
    backstory: z.number().int(),
    tools_json: z.number().int(),
    config_json: z.number().int(),
  })
  .describe('UTF-8 bytes of each stored field (JSON-serialized for objects); 0 when null');

const summaryShape = {
  id: Uuid,
  hash: z.string().describe('sha256 hex of the canonical JSON (RFC 8785) of the four text fields'),
  hash_short: z.string().describe('first 12 hex digits of hash'),
  created_at: UnixSeconds,
  created_by: z.string(),
  is_default: z.boolean(),
};

export const ProfileSummarySchema = named(
  'ProfileSummary',
  z.object({ ...summaryShape, sizes: ProfileSizes }),
);

export const ProfileSchema = named(
  'Profile',
  z.object({
    ...summaryShape,
    avatar_id: Uuid,
    sizes: ProfileSizes,
    system_prompt: z.string().nullable(),
    backstory: z.string().nullable(),
    tools_json: z.record(z.string(), z.unknown()).nullable(),
    config_json: z.record(z.string(), z.unknown()).nullable(),
  }),
);
export type Profile = z.infer<typeof ProfileSchema>;

export const CreatedProfileSchema = named(
  'CreatedProfile',
  z.object({
    ...summaryShape,
    avatar_id: Uuid,
    created: z.boolean().describe('false: identical content existed'),
  }),
);

export const ProfileListSchema = named(
  'ProfileList',
  z.object({ data: z.array(ProfileSummarySchema), default_profile_id: Uuid.nullable() }),
);

export const ProfileDefaultSchema = named(
  'ProfileDefault',
  z.object({
    ok: z.literal(true),
    avatar_id: Uuid,
    default_profile_id: Uuid,
    hash_short: z.string(),
  }),
);

/**
 * spec 4.9 body. `tools_json` and `config_json` are typed loosely so they reach the
 * tools and config validators and fail with the codes of spec 7.
 */
export const CreateProfileBody = z.object({
  system_prompt: textOfAtMost(Limits.contextSystemPromptChars)
    .nullable()
    .optional()
    .describe('behaviour prompt; omitted: null (falls through to the version)'),
  backstory: textOfAtMost(Limits.contextBackstoryChars)
    .nullable()
    .optional()
    .describe('backstory; omitted: null (falls through to the version)'),
  tools_json: z.unknown().optional().describe('tools object (spec 2)'),
  config_json: z.unknown().optional().describe('config group (spec 2); session-only keys refused'),
  set_default: z
    .boolean()
    .optional()
    .describe('make this profile the default (the dashboard sends true)'),
});
