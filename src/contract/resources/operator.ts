/** Shapes of the emulator's operator routes (`/_emulator/*`, ours; docs/emulator.md). */
import { z } from 'zod';

export const ClockAdvanceBody = z.object({
  ms: z
    .number()
    .min(0)
    .max(366 * 86_400_000)
    .describe('milliseconds, up to a year'),
});
export const GenerationFaultBody = z.object({
  stage: z.enum(['tts', 'video']).nullable(),
  count: z.number().int().min(1).max(1000).optional(),
});
/** Inference plans (spec 8): each picks the organisation's rate limits. */
export const InferencePlans = ['free', 'pro', 'enterprise'] as const;
export const OrgPlanBody = z.object({ plan: z.enum(InferencePlans) });
export const OrgPlanParams = z.object({ orgId: z.string().min(1) });
export const RecordingsParams = z.object({ id: z.string().min(1) });
export const RecordingParams = z.object({ id: z.string().min(1), name: z.string().min(1) });

/** An HTTP fault (docs/testing.md "Faults"): a status and/or latency on the routes it names. */
export const FaultSpec = z
  .object({
    route: z
      .string()
      .regex(
        /^((GET|POST|PUT|PATCH|DELETE|\*) )?\/\S*$/,
        'must be "[METHOD ]/path", with {param} or * for any segment(s)',
      )
      .describe('e.g. "POST /api/v1/sessions", "/compat-a/v1/*", "GET /api/v1/sessions/{id}"'),
    status: z.number().int().min(400).max(599).optional(),
    latency_ms: z.number().int().min(0).max(600_000).optional(),
    count: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('hits before the fault retires; default every request'),
    probability: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('chance that a matching request is hit; default 1'),
  })
  .strict()
  .refine((f) => f.status !== undefined || f.latency_ms !== undefined, {
    message: 'give status, latency_ms or both',
    path: ['status'],
  });
export const FaultParams = z.object({ id: z.string().min(1) });
export const StateResetBody = z.object({
  keep_keys: z.boolean().optional().describe('keep the bootstrap keys (default true)'),
});
export const LogsQuery = z.object({
  after: z.coerce.number().int().min(0).optional().describe('only entries after this seq'),
  session: z.string().optional().describe('only entries of this session'),
});
export const TriggerNames = [
  'fill-seats',
  'free-seats',
  'drain-queue',
  'webhook',
  'end-session',
  'expire-token',
  'drop-ticket',
  'fail-speak',
] as const;
export const TriggerParams = z.object({ name: z.enum(TriggerNames) });
/** The playground's v1 typed-turn relay: forwarded to a box of this emulator's `POST /chat`. */
export const UiChatBody = z.object({
  connect_url: z.string(),
  session_token: z.string(),
  text: z.string(),
});
