/**
 * Webhooks (spec 6.3). The endpoint record and the create body are "not shown" in the
 * spec; the shapes below are ours (docs/fidelity.md).
 */
import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

/** Event names a workspace endpoint may subscribe to (spec 6.3); `queue.*` covers the queue family. */
export const WebhookEvents = [
  'queue.claimable',
  'queue.position',
  'queue.dropped',
  'agent.tool_call.succeeded',
  'agent.tool_call.failed',
] as const;
export type WebhookEvent = (typeof WebhookEvents)[number];
export const WebhookSubscriptions = ['queue.*', 'agent.tool_call.*', ...WebhookEvents] as const;

/** Does a subscription list cover an event? `queue.*` covers every `queue.` event. */
export function subscribes(subscriptions: readonly string[], event: string): boolean {
  return subscriptions.some(
    (s) => s === event || (s.endsWith('.*') && event.startsWith(s.slice(0, -1))),
  );
}

export const CreateWebhookBody = named(
  'CreateWebhookRequest',
  z
    .object({
      url: z.string().min(1).describe('https URL (plain http only with --allow-insecure-urls)'),
      events: z
        .array(z.enum(WebhookSubscriptions))
        .min(1)
        .describe('event names or a family wildcard (queue.*, agent.tool_call.*)'),
      secret: z
        .string()
        .min(16)
        .max(256)
        .optional()
        .describe('HMAC signing secret; generated (whsec_...) when omitted'),
      description: z.string().max(200).optional(),
    })
    .strict(),
);

export const WebhookSchema = named(
  'Webhook',
  z.object({
    id: Uuid,
    workspace_id: Uuid,
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['active']),
    created_at: UnixSeconds,
  }),
  'Workspace webhook endpoint (ours: spec 2 does not show its fields)',
);

export const CreatedWebhookSchema = named(
  'CreatedWebhook',
  WebhookSchema.extend({
    secret: z.string().describe('signing secret, returned only on creation'),
  }),
);

/** The delivery envelope (spec 6.3); `timestamp` is milliseconds. */
export const WebhookEnvelopeSchema = named(
  'WebhookEnvelope',
  z.object({
    event: z.string(),
    workspace_id: Uuid.nullable(),
    data: z.record(z.string(), z.unknown()),
    timestamp: z.number().int().describe('milliseconds since the epoch'),
  }),
);
export type WebhookEnvelope = z.output<typeof WebhookEnvelopeSchema>;

export const WebhookParams = z.object({ wsId: Uuid, webhookId: Uuid });
