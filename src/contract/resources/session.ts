/**
 * Sessions and the queue (spec 2 "Session", "Transcript", "Queue ticket"; spec 4.5).
 *
 * The mint body types most fields loosely on purpose: spec 7 gives many fields their own
 * error code (`invalid_session_cap_seconds`, `invalid_recording`, `invalid_config`, tools
 * codes...), so those fields reach the mint's validation as sent and are rejected there
 * with the spec's code instead of the router's generic `invalid_request`.
 */
import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

export const NotifyBlock = z
  .object({
    url: z.string().describe('https URL that receives queue.* webhooks for this mint'),
    secret: z
      .string()
      .optional()
      .describe('HMAC-SHA256 key of x-signature-256; absent: delivered unsigned'),
  })
  .describe('spec 6.3: per-mint queue notifications; secret keys only');

export const MintContext = z
  .object({
    system_prompt: z
      .unknown()
      .optional()
      .describe('string, at most 40,960 chars; replaces the behaviour prompt'),
    backstory: z.string().optional().describe('at most 16,384 chars; replaces the backstory'),
    memory_block: z.string().optional().describe('at most 4,096 chars'),
    memory_id: z.string().optional().describe('refused on zero-data-retention workspaces'),
    history: z
      .array(z.object({ role: z.string(), content: z.string() }).catchall(z.unknown()))
      .optional()
      .describe('at most 40 messages and 16,384 bytes'),
  })
  .strict();

export const MintSessionBody = named(
  'MintSessionRequest',
  z
    .object({
      persona: z.string().optional().describe('stock persona key; works without a workspace'),
      avatar_id: Uuid.optional().describe(
        'current published version of a workspace avatar; secret keys only',
      ),
      avatar_ref: Uuid.optional().describe(
        'a specific avatar version id; needs a workspace; secret keys only',
      ),
      avatar_version_id: Uuid.optional().describe(
        'explicit version pin, with avatar_id; secret keys only',
      ),
      voice_ref: Uuid.optional().describe('voice version override; secret keys only'),
      workspace_id: Uuid.optional().describe('only when the key is not workspace-bound'),
      profile_id: z.string().optional().describe('pins the text layer; secret keys only'),
      context: MintContext.nullable()
        .optional()
        .describe('behaviour overrides; null or {} overrides nothing'),
      extra_system_prompt: z.string().optional().describe('at most 2,048 chars; appended'),
      extra_backstory: z
        .string()
        .optional()
        .describe('at most 2,048 chars; appended; extras at most 3,072 combined'),
      tools: z.unknown().optional().describe('tools object (spec 2); replaces stored tool config'),
      extra_tools: z
        .unknown()
        .optional()
        .describe('tools object merged onto the resolved tools; extra wins'),
      agent: z
        .unknown()
        .optional()
        .describe('agent object (spec 2): hook, tok, conv, v; at most 1,024 bytes'),
      config: z
        .unknown()
        .optional()
        .describe('config group override (spec 2); at most 1,024 bytes'),
      response_language: z.unknown().optional().describe('BCP-47 tag or display name'),
      session_cap_seconds: z.unknown().optional().describe('integer 60 to 3600; secret keys only'),
      recording: z.unknown().optional().describe('boolean, default false'),
      observability: z.unknown().optional().describe('boolean; deprecated in favour of recording'),
      // Not shown: its limits. It travels in the session token, so it is bounded like the
      // token's other parts (docs/fidelity.md).
      domain_allowlist: z
        .array(z.string().min(1).max(2_048))
        .max(100)
        .optional()
        .describe('origins allowed to connect; empty means all; at most 100'),
      concurrency_cap: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('lowers the plan ceiling for this mint'),
      metadata: z.record(z.string(), z.unknown()).optional().describe('passed through'),
      // Ours (spec: an offer of wire protocols): positive integers, at most 16 (docs/fidelity.md).
      protocol_versions: z
        .array(z.number().int().min(1, { message: 'a protocol version is an integer from 1' }))
        .min(1)
        .max(16, { message: 'at most 16 versions' })
        .optional()
        .describe('wire protocols offered, e.g. [2] or [1, 2]; positive integers, at most 16'),
      notify: z.unknown().optional().describe('{ url, secret? }; secret keys only (spec 6.3)'),
      queue_ticket: z.string().optional().describe('only when re-POSTing a queued mint'),
    })
    .strict(),
  'Session mint request (spec 4.5)',
);
export type MintSessionInput = z.output<typeof MintSessionBody>;

export const ProfileRef = z.object({
  id: z.string().nullable(),
  hash_short: z.string().nullable(),
  source: z.enum(['param', 'default', 'none']),
});

export const MintReadySchema = named(
  'SessionReady',
  z.object({
    status: z.literal('ready'),
    session_id: Uuid,
    connect_url: z.string().describe('base of the assigned edge; differs per mint; never cache'),
    session_token: z.string().describe('EdDSA JWT, verified offline by the edge'),
    seat_token: z.string().describe('opaque seat handle for heartbeat and release'),
    expires_at: UnixSeconds.describe('connect deadline of session_token'),
    cap_seconds: z.number().int().describe('maximum live duration'),
    profile: ProfileRef,
    tools_resolved: z.array(z.string()).optional().describe('present only when tools resolved'),
    protocol_version: z
      .number()
      .int()
      .optional()
      .describe('present only when protocol_versions was sent'),
  }),
  'Mint response 201 (spec 4.5)',
);
export type MintReady = z.output<typeof MintReadySchema>;

export const TicketState = z.enum(['waiting', 'claimable', 'expired']);

export const MintQueuedSchema = named(
  'SessionQueued',
  z.object({
    status: z.literal('queued'),
    queue_ticket: z.string(),
    position: z.number().int(),
    eta_seconds: z.number().int(),
    retry_after: z.number().int(),
    state: z.enum(['waiting', 'claimable']),
    claim_deadline: UnixSeconds.optional().describe('only when claimable'),
  }),
  'Mint response 202: every seat occupied (spec 4.5)',
);
export type MintQueued = z.output<typeof MintQueuedSchema>;

export const QueueStatusSchema = named(
  'QueueTicket',
  z.object({
    state: TicketState,
    position: z.number().int().optional().describe('absent when expired'),
    eta_seconds: z.number().int().nullable().optional().describe('absent when expired'),
    claim_deadline: UnixSeconds.optional().describe('only when claimable'),
    retry_after: z.number().int(),
  }),
  'Queue ticket status (spec 2, 4.5)',
);
export type QueueStatus = z.output<typeof QueueStatusSchema>;

export const SessionStatus = z.enum(['pending', 'active', 'ended', 'deleted']);

export const SessionSchema = named(
  'Session',
  z.object({
    id: Uuid,
    workspace_id: Uuid.nullable().describe(
      'null for a persona mint by a key without any workspace',
    ),
    api_token_id: Uuid.nullable(),
    avatar_ref: Uuid.nullable(),
    voice_ref: Uuid.nullable(),
    status: SessionStatus,
    session_token_id: z.string().nullable(),
    box_host: z.string(),
    created_at: UnixSeconds,
  }),
  'Session record (spec 2)',
);
export type SessionRecord = z.output<typeof SessionSchema>;

export const TranscriptSchema = named(
  'Transcript',
  z.object({
    session_id: Uuid,
    source: z.enum(['store', 'live']),
    turns: z.array(
      z.object({ seq: z.number().int(), user_text: z.string(), reply_text: z.string() }),
    ),
    count: z.number().int(),
    deleted: z.literal(true).optional().describe('erased session'),
    tool_calls: z
      .array(
        z.object({
          call_id: z.string(),
          tool: z.string(),
          source: z.string().nullable(),
          ok: z.boolean(),
          ms: z.number().int().nullable(),
          created_at: z.number().int(),
        }),
      )
      .optional()
      .describe('ours: the tool-call ledger of the session (kept 30 days), when it has calls'),
  }),
  'Transcript (spec 2)',
);

export const SeatTokenBody = z
  .object({ seat_token: z.string().optional().describe('when present, the sole credential') })
  .strict();

export const SessionParams = z.object({ sessionId: Uuid.describe('session id') });
// No length limit: any string names a ticket, and an unknown one reads `expired` (spec 4.5: 200, never 404).
export const TicketParams = z.object({ ticket: z.string().min(1).describe('queue ticket') });
export const QueueQuery = z.object({ workspace_id: Uuid.optional() });
