/** Shapes of the emulator's operator routes (`/_emulator/*`, ours; docs/emulator.md). */
import { z } from 'zod';
import { CHAT_TEXT_MAX } from '../edge/protocol.js';

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
export const HttpFaultSpec = z
  .object({
    route: z
      .string()
      .regex(
        /^((GET|POST|PUT|PATCH|DELETE|\*) )?\/\S*$/,
        'must be "[METHOD ]/path", with {param} or * for any segment(s)',
      )
      .describe('e.g. "POST /api/v1/sessions", "/compat-a/v1/*", "GET /api/v1/sessions/{id}"'),
    /** Absent on an HTTP fault: `stream` picks a live-stream fault (StreamFaultSpec). */
    stream: z.undefined().optional(),
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

/**
 * Live-stream faults (docs/testing.md "Faults inside live streams"), each met at one event
 * of a session on a box:
 * - `drop_media`: the media socket (/mse, /v2/session) is dropped `after_ms` after it opens;
 * - `stall_mse`: `after_ms` after it opens, no media goes out for `ms`; then everything held
 *   goes out, on one continuous timeline;
 * - `truncate_fragment`: the first fragment sent `after_ms` after the open is cut short;
 * - `crash_box`: the session's box crashes `after_ms` after the media socket opens;
 * - `delay_turn`: the `turn` message goes out `ms` late;
 * - `recognizer_fail`: the recogniser fails on an utterance;
 * - `brain_fail`: the brain fails on a reply.
 */
export const StreamFaultKinds = [
  'drop_media',
  'stall_mse',
  'truncate_fragment',
  'crash_box',
  'delay_turn',
  'recognizer_fail',
  'brain_fail',
] as const;
export type StreamFaultKind = (typeof StreamFaultKinds)[number];
/** The stream faults met when a media socket opens (timed from then by `after_ms`). */
export const MediaOpenFaults: readonly StreamFaultKind[] = [
  'drop_media',
  'stall_mse',
  'truncate_fragment',
  'crash_box',
];
/**
 * The longest `stall_mse`: what a stall held goes out at once when it ends, and a socket
 * drops media past its 8 MB send buffer, so a longer stall would leave a hole.
 */
export const MAX_STALL_MS = 60_000;
export const StreamFaultSpec = z
  .object({
    stream: z.enum(StreamFaultKinds).describe('which live-stream fault'),
    after_ms: z
      .number()
      .int()
      .min(0)
      .max(86_400_000)
      .optional()
      .describe('drop_media, stall_mse, truncate_fragment, crash_box: from the media socket open'),
    ms: z
      .number()
      .int()
      .min(1)
      .max(600_000)
      .optional()
      .describe(
        'stall_mse: how long media stops (at most 60 000); delay_turn: how late the turn message goes',
      ),
    session: z.string().min(1).optional().describe('only this session (default any)'),
    count: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('hits before the fault retires; default every event'),
    probability: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('chance that a matching event is hit; default 1'),
  })
  .strict()
  .refine((f) => (f.stream === 'stall_mse' || f.stream === 'delay_turn') === (f.ms !== undefined), {
    message: 'give ms for stall_mse and delay_turn, and only for them',
    path: ['ms'],
  })
  .refine((f) => f.stream !== 'stall_mse' || (f.ms ?? 0) <= MAX_STALL_MS, {
    message: `a stall_mse lasts at most ${MAX_STALL_MS} ms`,
    path: ['ms'],
  })
  .refine((f) => MediaOpenFaults.includes(f.stream) || f.after_ms === undefined, {
    message: 'after_ms is for drop_media, stall_mse, truncate_fragment and crash_box',
    path: ['after_ms'],
  });

/** A fault: HTTP (`route`) or inside live streams (`stream`). */
export const FaultSpec = z.discriminatedUnion('stream', [HttpFaultSpec, StreamFaultSpec], {
  // An unknown `stream` names the seven kinds (not the HTTP fault's absent `stream`).
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `Invalid stream fault. Expected ${StreamFaultKinds.map((k) => `'${k}'`).join(' | ')}, or no stream for an HTTP fault`
      : undefined,
});

/** A stream fault as the control plane hands it to a box that met its event (internal box API). */
export const DealtStreamFault = z.object({
  id: z.string(),
  stream: z.enum(StreamFaultKinds),
  after_ms: z.number().int().min(0).optional(),
  ms: z.number().int().min(1).optional(),
});
export type DealtStreamFault = z.output<typeof DealtStreamFault>;
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
  connect_url: z.string().max(2048),
  // A session token carries the session's frozen config (allowlist, tools): room for it.
  session_token: z.string().max(16_384),
  text: z.string().max(CHAT_TEXT_MAX),
});
