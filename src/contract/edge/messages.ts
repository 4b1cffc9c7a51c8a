/**
 * Every message of the edge's WebSockets (spec 4.6, 6.1; docs/protocol-v2.md, docs/edge.md),
 * as zod schemas: the edge builds and checks what it sends and accepts with them, the
 * client reads with the same constants, and the AsyncAPI document
 * (`/api/v1/asyncapi.json`) is generated from `edgeSockets` below.
 */
import { z } from 'zod';

export { CHAT_TEXT_MAX, TAG_MEDIA, TAG_MIC, V2_SUBPROTOCOL } from './protocol.js';
import { CHAT_TEXT_MAX, V2_SUBPROTOCOL } from './protocol.js';
import { textOfAtMost } from '../resources/common.js';

const lang = z
  .string()
  .min(1)
  .max(64)
  .nullable()
  .optional()
  .describe('a language tag such as "en" or "de-DE"');

// Client to edge
export const V1Hello = z
  .object({ op: z.literal('hello'), lang })
  .describe('v1 /mic_stream: session context, before the first audio frame');
export const V2Hello = z
  .object({ type: z.literal('hello'), lang })
  .describe('v2: session context, before the first audio frame');
/** A typed turn's text: not blank, at most CHAT_TEXT_MAX characters (code points). */
// "" is blank too: one `not blank` message for it and for spaces (no min(1) with its own).
export const ChatText = textOfAtMost(CHAT_TEXT_MAX)
  .refine((s) => s.trim() !== '', { message: 'not blank' })
  .meta({ minLength: 1, maxLength: CHAT_TEXT_MAX });
export const V2Chat = z
  .object({ type: z.literal('chat'), text: ChatText })
  .describe('v2: a typed user turn');
export const V2Ping = z
  .object({ type: z.literal('ping') })
  .describe('v2: asks for a pong with the session clock');
export const V2ClientMessage = z.discriminatedUnion('type', [V2Hello, V2Chat, V2Ping]);

/**
 * A client text message as the edge reads it (docs/edge.md, docs/protocol-v2.md): parsed
 * by the schemas above, or the `error` message's code and `detail` to answer it with (the
 * socket and the session go on). One detail per message kind, so a client learns which
 * rule it broke: not a JSON object, an unknown `op`/`type`, a bad `lang`, a bad chat text.
 */
export type Inbound<T> =
  | { ok: true; msg: T }
  | { ok: false; error: 'invalid_message'; detail: string };
const refuse = (detail: string) => ({ ok: false, error: 'invalid_message', detail }) as const;
const NOT_OBJECT = 'text messages are JSON objects';
const BAD_LANG = 'hello.lang is a language tag such as "en" or "de-DE"';
const BAD_CHAT = `chat.text is a non-empty string of at most ${CHAT_TEXT_MAX} characters`;

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const o: unknown = JSON.parse(text);
    return o && typeof o === 'object' && !Array.isArray(o)
      ? (o as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** v1 /mic_stream: the only text message is the hello (spec 6.1). */
export function readV1ClientText(text: string): Inbound<z.output<typeof V1Hello>> {
  const o = jsonObject(text);
  if (!o) return refuse(NOT_OBJECT);
  if (o.op !== 'hello')
    return refuse('the only text message on /mic_stream is { "op": "hello", "lang": "..." }');
  const r = V1Hello.safeParse(o);
  return r.success ? { ok: true, msg: r.data } : refuse(BAD_LANG);
}

/** v2 /v2/session: hello, chat or ping (docs/protocol-v2.md). */
export function readV2ClientText(text: string): Inbound<z.output<typeof V2ClientMessage>> {
  const o = jsonObject(text);
  if (!o) return refuse(NOT_OBJECT);
  const r = V2ClientMessage.safeParse(o);
  if (r.success) return { ok: true, msg: r.data };
  if (o.type === 'hello') return refuse(BAD_LANG);
  if (o.type === 'chat') return refuse(BAD_CHAT);
  return refuse('client messages are hello, chat and ping (docs/protocol-v2.md)');
}

// Edge to client
export const MseInit = z
  .object({ mime: z.string() })
  .describe('v1 /mse: the codec string, first, before any media');
export const PartialMessage = z
  .object({ type: z.literal('partial'), text: z.string() })
  .describe('interim transcript of the user');
export const BrainPayloadSchema = z.object({
  name: z.string(),
  reply: z.string(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).optional(),
});
export const TurnMessage = z
  .object({
    type: z.literal('turn'),
    text: z.string(),
    reply: z.string(),
    language: z.string().optional(),
    speech_id: z.string().optional(),
    greeting: z.literal(true).optional(),
    brain: BrainPayloadSchema.optional().describe('brain-only sessions (config render: false)'),
  })
  .describe('a committed turn: what the user said and the reply');
export const ErrorMessage = z
  .object({ type: z.literal('error'), error: z.string(), detail: z.string().optional() })
  .describe('a refused client message or a failed turn; the socket stays open');
export const StatusMessage = z
  .object({
    type: z.literal('status'),
    state: z.string(),
    speech_id: z.string().nullable(),
    buffered_ms: z.number(),
    media_ms: z.number().nullable(),
    session_ms: z.number(),
    cap_seconds: z.number(),
    render: z.boolean(),
  })
  .describe('/events telemetry, about every 100 ms');
export const SpeechMessage = z
  .object({
    type: z.literal('speech'),
    speech_id: z.string(),
    status: z.enum(['started', 'interrupted']),
    media_ms: z.number().optional(),
    said: z.string().optional(),
  })
  .describe('a reply started, or was cut by barge-in (`said`: what was spoken)');
const toolCall = { type: z.literal('agent_event'), tool: z.string(), call_id: z.string() };
export const AgentCallingEvent = z
  .object({ ...toolCall, kind: z.literal('calling') })
  .describe('agent_event calling: a tool verdict was parsed, before the round-trip (spec 6.1)');
export const AgentImageEvent = z
  .object({
    ...toolCall,
    kind: z.literal('image'),
    url: z.string(),
    caption: z.string().optional(),
  })
  .describe('agent_event image: a tool made an image (`url` on the box, `caption`) (spec 6.1)');
export const AgentImagePendingEvent = z
  .object({
    ...toolCall,
    kind: z.literal('image_pending'),
    url: z.string().optional(),
    caption: z.string().optional(),
  })
  .describe('agent_event image_pending: an image is being made (docs/tools.md)');
export const AgentEventMessage = z
  .discriminatedUnion('kind', [AgentCallingEvent, AgentImageEvent, AgentImagePendingEvent])
  .describe('tool activity (spec 6.1): kinds calling, image, image_pending');
export const V2SessionMessage = z
  .object({
    type: z.literal('session'),
    protocol: z.literal(2),
    session_id: z.string(),
    mime: z.string().nullable(),
    render: z.boolean(),
    cap_seconds: z.number(),
  })
  .describe('v2: first message; the codec string of the media frames');
export const V2ChatAck = z
  .object({ type: z.literal('chat_ack'), speech_id: z.string() })
  .describe('v2: a chat message was taken');
export const V2Pong = z
  .object({ type: z.literal('pong'), session_ms: z.number() })
  .describe('v2: answer to ping');

/**
 * Why the edge ended a live session; each reaches the client as a close code and reason
 * (docs/protocol-v2.md "Closing", docs/edge.md): `closed` every client socket closed,
 * `cap` cap_seconds reached (4001 `session_cap`), `released` released or ended on the
 * control plane (4002 `session_ended: released`), `box_stopping` (1001), `idle` a
 * /chat-only session left idle (4002), `script` a conversation script's `end` step (4002).
 * The seat event to the control plane carries it, `released` and `script` excepted.
 */
export const EndReason = z.enum(['closed', 'cap', 'released', 'box_stopping', 'idle', 'script']);
export type EndReason = z.infer<typeof EndReason>;

/** Binary payloads (described as bytes; the schema documents them). */
export const MicFrame = z
  .string()
  .describe('binary: 1600 samples of 16 kHz mono PCM16 little-endian (3200 bytes)');
export const MediaSegment = z
  .string()
  .describe('binary: fMP4 (init segment, then moof+mdat fragments)');
export const V2MicFrame = z
  .string()
  .describe('binary: 0x02 then 1600 samples of 16 kHz mono PCM16 (3201 bytes)');
export const V2MediaFrame = z
  .string()
  .describe('binary: 0x01 then an fMP4 init segment or fragment');

/** Every message by name (the AsyncAPI `components.messages`). */
export const edgeMessages = {
  V1Hello,
  MicFrame,
  MseInit,
  MediaSegment,
  PartialMessage,
  TurnMessage,
  ErrorMessage,
  StatusMessage,
  SpeechMessage,
  AgentEventMessage,
  V2Hello,
  V2Chat,
  V2Ping,
  V2MicFrame,
  V2SessionMessage,
  V2ChatAck,
  V2Pong,
  V2MediaFrame,
} as const;
export type EdgeMessageName = keyof typeof edgeMessages;

export interface EdgeSocket {
  path: string;
  protocol: 1 | 2;
  subprotocol?: string;
  summary: string;
  /** What the edge sends. */
  sends: readonly EdgeMessageName[];
  /** What the edge accepts. */
  accepts: readonly EdgeMessageName[];
}

/** The edge's sockets (token: `?token=<session_token>`; spec 4.6). */
export const edgeSockets: readonly EdgeSocket[] = [
  {
    path: '/mse',
    protocol: 1,
    summary: 'v1 media downlink',
    sends: ['MseInit', 'MediaSegment', 'ErrorMessage'],
    accepts: [],
  },
  {
    path: '/mic_stream',
    protocol: 1,
    summary: 'v1 microphone uplink; transcripts and turns back',
    sends: ['PartialMessage', 'TurnMessage', 'ErrorMessage'],
    accepts: ['V1Hello', 'MicFrame'],
  },
  {
    path: '/events',
    protocol: 1,
    summary: 'v1 events downlink',
    sends: ['StatusMessage', 'TurnMessage', 'SpeechMessage', 'AgentEventMessage', 'ErrorMessage'],
    accepts: [],
  },
  {
    path: '/v2/session',
    protocol: 2,
    subprotocol: V2_SUBPROTOCOL,
    summary: 'v2: one socket, both directions; binary frames tagged by their first byte',
    sends: [
      'V2SessionMessage',
      'V2MediaFrame',
      'PartialMessage',
      'TurnMessage',
      'StatusMessage',
      'SpeechMessage',
      'AgentEventMessage',
      'ErrorMessage',
      'V2ChatAck',
      'V2Pong',
    ],
    accepts: ['V2Hello', 'V2Chat', 'V2Ping', 'V2MicFrame'],
  },
];

/** Any JSON message the edge sends, as built (the edge's channels accept only these). */
export type EdgeSentMessage =
  | z.input<typeof MseInit>
  | z.input<typeof PartialMessage>
  | z.input<typeof TurnMessage>
  | z.input<typeof ErrorMessage>
  | z.input<typeof StatusMessage>
  | z.input<typeof SpeechMessage>
  | z.input<typeof AgentEventMessage>
  | z.input<typeof V2SessionMessage>
  | z.input<typeof V2ChatAck>
  | z.input<typeof V2Pong>;
/** Any JSON message a client sends (v1 hello, v2 control). */
export type ClientSentMessage = z.input<typeof V1Hello> | z.input<typeof V2ClientMessage>;
