import { z } from 'zod';

import { CreateWebhookBody } from '../../contract/resources/webhook.js';
import { CreateAvatarBody, CreateAvatarVersionBody } from '../../contract/resources/avatar.js';
import { CreateProfileBody } from '../../contract/resources/profile.js';
import { CreateVoiceBody, CreateVoiceVersionBody } from '../../contract/resources/voice.js';
import { RegisterMcpServerBody } from '../../contract/resources/tools.js';
import { orgPlans } from '../option-limits.js';
import { FaultSpec } from '../operator/faults.js';
import { Script } from '../../contract/resources/script.js';

/**
 * The seed file (issue 18 item 2; docs/testing.md "Seeds"): YAML or JSON that a fresh
 * emulator starts from, so a test suite knows its workspaces, keys and webhooks in
 * advance, and its avatars (faces and voices from files), profiles, voices and MCP servers.
 * Published as JSON Schema at schemas/seed.schema.json (test/harness-seed.test.ts
 * keeps it in step with this file).
 */
const SeedKey = z
  .object({
    name: z.string().min(1).max(200),
    token: z
      .string()
      .regex(
        /^(avatar|pk)_[0-9a-f]{8}\.[0-9a-f]{56}$/,
        'must be avatar_<8 hex>.<56 hex> (secret) or pk_<8 hex>.<56 hex> (publishable)',
      )
      .describe("the key's fixed value; the 8 hex after the prefix must be unique in the seed"),
    scopes: z.array(z.string().min(1)).min(1).default(['*']),
    allowed_origins: z
      .array(z.string().min(1))
      .optional()
      .describe('publishable keys: the Origins allowed'),
  })
  .strict();

const FixedUuid = z
  .uuid()
  .describe('a fixed id, for a suite that needs to know it; must be unique in the seed');

/** A file named in the seed: a path relative to the seed file (or absolute). */
const SeedFile = (what: string) => z.string().min(1).describe(`${what}, relative to the seed file`);

/**
 * An avatar: POST .../avatars, then (when anything below is given) one version with the
 * version body's fields, its face and voice uploaded from files, then its profiles.
 */
const SeedAvatar = CreateAvatarVersionBody.omit({ inherit_image: true })
  .extend({
    id: FixedUuid.optional(),
    ...CreateAvatarBody.shape,
    face: SeedFile('face image (.png, .jpg, .jpeg or .webp), uploaded to the version').optional(),
    voice: SeedFile(
      'voice sample (.wav or .mp3, 5 to 30 s of speech), uploaded to the version; voice_ref_text is its transcript',
    ).optional(),
    profiles: z
      .array(CreateProfileBody.extend({ id: FixedUuid.optional() }).strict())
      .default([])
      .describe('as POST /api/v1/avatars/{avatarId}/profiles, in order'),
  })
  .strict();

/** A voice: POST .../voices, then a version with its sample when `sample` is given. */
const SeedVoice = CreateVoiceBody.extend({
  id: FixedUuid.optional(),
  configJson: CreateVoiceVersionBody.shape.configJson,
  sample: SeedFile('voice sample (.wav or .mp3, 5 to 30 s), uploaded to a new version').optional(),
}).strict();

/** An MCP server: the register body of POST .../mcp-servers (the live probe runs). */
const SeedMcpServer = RegisterMcpServerBody.extend({
  id: z
    .string()
    .regex(/^mcps_[0-9a-f]{24}$/, 'must be mcps_<24 hex>')
    .optional()
    .describe('a fixed id (mcps_<24 hex>); must be unique in the seed'),
}).strict();

const SeedWorkspaceParts = {
  keys: z.array(SeedKey).default([]).describe('keys bound to this workspace, with fixed values'),
  webhooks: z
    .array(CreateWebhookBody)
    .default([])
    .describe('as POST /api/v1/workspaces/{wsId}/webhooks; give `secret` to know it in advance'),
  avatars: z
    .array(SeedAvatar)
    .default([])
    .describe('avatars, with faces and voices from files, and their profiles'),
  voices: z.array(SeedVoice).default([]).describe('voices, with a sample from a file'),
  mcp_servers: z
    .array(SeedMcpServer)
    .default([])
    .describe('MCP servers, as POST /api/v1/workspaces/{wsId}/mcp-servers'),
};

const SeedWorkspace = z
  .object({
    id: FixedUuid.optional(),
    name: z.string().min(1).max(200),
    plan: z.string().min(1).default('free'),
    ...SeedWorkspaceParts,
  })
  .strict();

export const SeedSchema = z
  .object({
    $schema: z.string().optional(),
    org: z
      .object({ plan: z.enum(orgPlans) })
      .strict()
      .optional()
      .describe("the emulator's organisation (inference rate limits)"),
    default_workspace: z
      .object(SeedWorkspaceParts)
      .strict()
      .optional()
      .describe('keys, webhooks, avatars, voices and MCP servers added to the bootstrap workspace'),
    workspaces: z
      .array(SeedWorkspace)
      .default([])
      .describe('further workspaces of the organisation'),
    faults: z
      .array(FaultSpec)
      .default([])
      .describe('HTTP and stream faults from the start, as POST /_emulator/faults'),
    scripts: z
      .array(
        z.union([
          SeedFile('a script file (YAML or JSON: one script or { scripts: [...] })'),
          Script,
        ]),
      )
      .default([])
      .describe(
        'conversation scripts loaded at every start (docs/testing.md "Conversation scripts"): inline, or files',
      ),
  })
  .strict();

export type Seed = z.output<typeof SeedSchema>;

/** The JSON Schema editors read (draft 2020-12), as published in schemas/seed.schema.json. */
export function seedJsonSchema(): Record<string, unknown> {
  return {
    // 'any': an HTTP fault's absent `stream` (the discriminator of stream faults) has no JSON Schema.
    ...z.toJSONSchema(SeedSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://avatar.local/schemas/seed.schema.json',
    title: 'avatar emulator seed file',
  };
}
