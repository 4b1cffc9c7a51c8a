import { z } from 'zod';

import { CreateWebhookBody } from '../../contract/resources/webhook.js';
import { orgPlans } from '../option-limits.js';
import { FaultSpec } from '../operator/faults.js';

/**
 * The seed file (issue 18 item 2; docs/testing.md "Seeds"): YAML or JSON that a fresh
 * emulator starts from, so a test suite knows its workspaces, keys and webhooks in
 * advance. Published as JSON Schema at schemas/seed.schema.json (test/harness-seed.test.ts
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

const SeedWorkspaceParts = {
  keys: z.array(SeedKey).default([]).describe('keys bound to this workspace, with fixed values'),
  webhooks: z
    .array(CreateWebhookBody)
    .default([])
    .describe('as POST /api/v1/workspaces/{wsId}/webhooks; give `secret` to know it in advance'),
};

const SeedWorkspace = z
  .object({
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
      .describe('keys and webhooks added to the bootstrap workspace'),
    workspaces: z
      .array(SeedWorkspace)
      .default([])
      .describe('further workspaces of the organisation'),
    faults: z
      .array(FaultSpec)
      .default([])
      .describe('HTTP and stream faults from the start, as POST /_emulator/faults'),
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
