/**
 * The routes between the control plane and its edge boxes: the internal box API the
 * emulator serves (`/_internal/boxes/*`, box credential only; docs/edge.md) and the edge's
 * own `POST /chat` (spec 4.6), served by a box at the session's `ws_url` host.
 */
import { z } from 'zod';
import { ChatText, EndReason } from '../edge/messages.js';
import { ToolCallBody, ToolCallReportBody, ToolWireErrors } from '../resources/tools.js';
import { DealtStreamFault } from '../resources/operator.js';
import { Script } from '../resources/script.js';
import { defineOperation, type HttpMethod, type Operation, type Responses } from '../operation.js';

const Json = z.record(z.string(), z.unknown());
const BoxParams = z.object({ boxId: z.string().min(1) });
const BoxSessionParams = z.object({ boxId: z.string().min(1), sessionId: z.string().min(1) });

function internal<
  P extends z.ZodObject = typeof BoxParams,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = typeof Json,
  const R extends Responses = Responses,
>(
  id: string,
  method: HttpMethod,
  path: `/_internal/${string}`,
  summary: string,
  more: Partial<Operation<P, Q, B, R>> & { responses: R },
): Operation<P, Q, B, R> {
  return defineOperation<P, Q, B, R>({
    id,
    method,
    path,
    summary,
    auth: 'public',
    family: 'internal',
    cli: false,
    // The defaults stand for P and B when `more` names none (the type parameters' defaults).
    params: BoxParams as unknown as P,
    body: (method === 'post' ? Json : undefined) as B | undefined,
    ...more,
    responses: more.responses,
  });
}

/** Where a box meets live-stream faults (docs/testing.md "Faults inside live streams"). */
export const StreamFaultEvents = ['media_open', 'turn', 'recognize', 'reply'] as const;
export type StreamFaultEvent = (typeof StreamFaultEvents)[number];

const OkBody = {
  200: { description: '{ ok: true }', schema: z.object({ ok: z.literal(true) }) },
} as const;

/** What a box announces when it registers. */
export const BoxRegistration = z.object({
  base_url: z.url({ protocol: /^https?$/ }),
  seats: z.number().int().min(0).max(10_000),
  protocols: z.array(z.number().int().min(1)).min(1),
  custom_avatars: z.boolean(),
  verified: z.boolean(),
  max_cap_seconds: z.number().int().min(1).nullable().optional(),
  callback_secret: z.string().min(16).max(200).nullable().optional(),
});
/** A seat connected, or ended by the box. */
export const BoxSeatEvent = z.object({
  session_id: z.string().min(1),
  event: z.enum(['connect', 'close']),
  /** Why the box ended it: every client socket closed, the cap, the box stopping, or idle (a /chat-only session). */
  reason: EndReason.exclude(['released', 'script']).optional(),
});
/** A finished turn. */
export const BoxTurn = z.object({
  seq: z.number().int().min(0),
  user_text: z.string(),
  reply_text: z.string(),
});

// The internal box API (`/_internal/boxes/*`).
export const BoxRegisteredSchema = z.object({
  ok: z.literal(true),
  box_id: z.string(),
  fault_events: z.array(z.enum(StreamFaultEvents)),
  fault_version: z.number().int(),
});
export const BoxToolsSchema = z.object({
  tools: z.array(
    z.looseObject({
      name: z.string(),
      source: z.enum(['hook', 'mcp', 'builtin']),
      server: z.string().nullable(),
    }),
  ),
  max_calls: z.number().int(),
  history: z.boolean(),
  spent: z.number().int(),
  left: z.number().int(),
  disabled: z.string().nullable().describe('why the tool channel is off, or null'),
});
/** The gateway's answer to a tool call: the result, or a wire-level tool error (still a 200). */
export const ToolCallReplySchema = z.union([
  z.object({ ok: z.literal(true), status: z.literal('done'), result: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.enum(ToolWireErrors), message: z.string() }),
]);

// A box's own routes.
/** `POST /chat` (spec 4.6). */
export const ChatReplySchema = z.object({ ok: z.literal(true), speech_id: z.string() });
export const EdgeHealthSchema = z.object({
  ok: z.literal(true),
  box_id: z.string(),
  seats: z.number().int(),
  protocols: z.array(z.number().int()),
  connected: z.number().int(),
});
export const EdgeSessionLogSchema = z.object({
  session_id: z.string(),
  ended: EndReason.nullable().describe('why it ended; null while live'),
  turns: z.array(BoxTurn),
});
export const EdgeCaptureListSchema = z.object({
  session_id: z.string(),
  data: z.array(z.object({ name: z.string(), bytes: z.number().int() })),
});

export const boxRegister = internal(
  'boxes.register',
  'post',
  '/_internal/boxes/{boxId}/register',
  'A box announces its seats and protocols',
  {
    body: BoxRegistration,
    responses: {
      200: {
        description: 'Registered; the stream-fault events armed now',
        schema: BoxRegisteredSchema,
      },
    },
  },
);
export const boxDeregister = internal(
  'boxes.deregister',
  'post',
  '/_internal/boxes/{boxId}/deregister',
  'A box leaves the fleet',
  { body: undefined, responses: OkBody },
);
/**
 * Whether the control plane has this box in its fleet now: a box asks it every few seconds
 * to notice a control plane that went away or restarted, and registers again when it is
 * back (docs/edge.md "When the control plane restarts"). Answer `{ registered: boolean }`.
 */
export const boxPresence = internal(
  'boxes.presence',
  'get',
  '/_internal/boxes/{boxId}/presence',
  'Whether this box is registered (a box asks to find a control plane that restarted)',
  {
    responses: {
      200: { description: '{ registered }', schema: z.object({ registered: z.boolean() }) },
    },
  },
);
export const boxSeatEvents = internal(
  'boxes.seatEvents',
  'post',
  '/_internal/boxes/{boxId}/seats/events',
  'A seat was taken, connected or released',
  { body: BoxSeatEvent, responses: OkBody },
);
export const boxTurns = internal(
  'boxes.turns',
  'post',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/turns',
  'A finished turn (for transcripts and webhooks)',
  {
    params: BoxSessionParams,
    body: BoxTurn,
    responses: OkBody,
  },
);
export const boxMedia = internal(
  'boxes.media',
  'get',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/media/{kind}',
  "A session's avatar media for the box",
  {
    params: BoxSessionParams.extend({ kind: z.string().min(1) }),
    responses: { 200: { description: 'The media bytes', contentType: 'application/octet-stream' } },
  },
);
export const boxTools = internal(
  'boxes.tools',
  'get',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/tools',
  "A session's resolved tools, budget left and disabled state",
  {
    params: BoxSessionParams,
    responses: {
      200: { description: "The session's tools, budget and channel state", schema: BoxToolsSchema },
    },
  },
);
/**
 * The conversation script a session runs (docs/testing.md "Conversation scripts"): the one
 * the mint chose and froze, or null. Answer `{ script: Script | null }`.
 */
export const boxScript = internal(
  'boxes.script',
  'get',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/script',
  'The conversation script the mint chose for a session (null: none)',
  {
    params: BoxSessionParams,
    responses: {
      200: { description: '{ script }', schema: z.object({ script: Script.nullable() }) },
    },
  },
);
export const boxToolCalls = internal(
  'boxes.toolCalls',
  'post',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/tool-calls',
  'A tool call for the gateway (wire-level tool errors in a 200 body)',
  {
    params: BoxSessionParams,
    body: ToolCallBody,
    responses: {
      200: { description: 'The result, or a wire-level tool error', schema: ToolCallReplySchema },
    },
  },
);
export const boxToolCallsReport = internal(
  'boxes.toolCallsReport',
  'post',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/tool-calls/report',
  'A built-in call the box ran itself (budget, record, webhooks)',
  {
    params: BoxSessionParams,
    body: ToolCallReportBody,
    responses: { 200: { description: 'The result as recorded', schema: ToolCallReplySchema } },
  },
);

/**
 * What the control plane tells a box is armed: the events, and a version that rises with
 * each change, so a box that hears two arm messages out of order keeps the newer.
 */
export const ArmBody = z.object({
  events: z.array(z.enum(StreamFaultEvents)),
  version: z.number().int().min(0).optional().describe('rises with each change; older is ignored'),
});
export const boxFaultClaim = internal(
  'boxes.faultClaim',
  'post',
  '/_internal/boxes/{boxId}/sessions/{sessionId}/faults',
  'A session met a stream-fault event: the faults dealt to it (counted and logged here)',
  {
    params: BoxSessionParams,
    body: z.object({ event: z.enum(StreamFaultEvents) }),
    responses: {
      200: {
        description: '{ faults }',
        schema: z.object({ faults: z.array(DealtStreamFault) }),
      },
    },
  },
);

export const ChatBody = z.object({ text: ChatText });
export const ChatQuery = z.object({
  token: z.string().optional().describe('the session token (or Authorization: Bearer)'),
});

export const edgeChat = defineOperation({
  id: 'edge.chat',
  method: 'post',
  path: '/chat',
  summary: "Inject a typed user turn into a live session (the edge's host; session token)",
  auth: 'public',
  family: 'edge',
  cli: false,
  query: ChatQuery,
  body: ChatBody,
  responses: {
    200: {
      description: '{ ok: true, speech_id }',
      schema: ChatReplySchema,
    },
  },
});

/** A box's own routes beside /chat: its health, and what only the control plane calls (box secret). */
function box<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  const R extends Responses = Responses,
>(
  id: string,
  method: HttpMethod,
  path: string,
  summary: string,
  more: Partial<Operation<P, Q, B, R>> & { responses: R },
): Operation<P, Q, B, R> {
  return defineOperation<P, Q, B, R>({
    id,
    method,
    path,
    summary,
    auth: 'public',
    family: 'edge',
    cli: false,
    ...more,
    responses: more.responses,
  });
}
const BoxSession = z.object({ id: z.string().min(1) });
export const edgeHealth = box(
  'edge.health',
  'get',
  '/health',
  "The box's id, seats, protocols and connected sessions",
  {
    responses: {
      200: {
        description: "The box's id, seats, protocols and connected sessions",
        schema: EdgeHealthSchema,
      },
    },
  },
);
export const edgeSessionLog = box(
  'edge.sessionLog',
  'get',
  '/_box/sessions/{id}/log',
  "A session's turns as the box logged them (control plane only)",
  {
    params: BoxSession,
    responses: { 200: { description: "The session's turns", schema: EdgeSessionLogSchema } },
  },
);
export const edgeSessionEnd = box(
  'edge.sessionEnd',
  'post',
  '/_box/sessions/{id}/end',
  'End a session the control plane decided to end (reason=cap|released)',
  {
    params: BoxSession,
    query: z.object({ reason: z.enum(['cap', 'released']).optional() }),
    responses: OkBody,
  },
);
export const edgeFaults = box(
  'edge.faults',
  'post',
  '/_box/faults',
  'The stream-fault events armed now: the box asks the control plane only at those (control plane only)',
  { body: ArmBody, responses: OkBody },
);
export const edgeCaptures = box(
  'edge.captures',
  'get',
  '/_box/sessions/{id}/captures',
  "A recorded session's capture files on this box",
  {
    params: BoxSession,
    responses: { 200: { description: 'The capture files', schema: EdgeCaptureListSchema } },
  },
);
/** The capture files a box keeps and serves, with their content types. */
export const CAPTURE_FILES: Readonly<Record<string, string>> = {
  'mic.wav': 'audio/wav',
  'video.mp4': 'video/mp4',
};
/** A capture file's name (own keys only: `constructor` is not one). */
export const isCaptureFile = (name: string): boolean => Object.hasOwn(CAPTURE_FILES, name);
export const edgeCapture = box(
  'edge.capture',
  'get',
  '/_box/sessions/{id}/captures/{name}',
  'One capture file',
  {
    params: BoxSession.extend({ name: z.string().min(1) }),
    responses: { 200: { description: 'The file', contentType: 'application/octet-stream' } },
  },
);
export const edgeImage = box(
  'edge.image',
  'get',
  '/_box/images/{file}',
  'An image a built-in tool made on this box (PNG)',
  {
    params: z.object({ file: z.string().min(1) }),
    responses: { 200: { description: 'The image', contentType: 'image/png' } },
  },
);
export const edgeCapturesDelete = box(
  'edge.capturesDelete',
  'delete',
  '/_box/sessions/{id}/captures',
  "Delete a session's captures (retention sweep)",
  { params: BoxSession, responses: OkBody },
);

export const boxOperations = [
  boxRegister,
  boxDeregister,
  boxPresence,
  boxSeatEvents,
  boxTurns,
  boxMedia,
  boxTools,
  boxScript,
  boxToolCalls,
  boxToolCallsReport,
  boxFaultClaim,
  edgeChat,
  edgeHealth,
  edgeSessionLog,
  edgeSessionEnd,
  edgeFaults,
  edgeCaptures,
  edgeCapture,
  edgeCapturesDelete,
  edgeImage,
];
