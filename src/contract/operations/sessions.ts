/**
 * Session and queue operations (spec 4.5). Heartbeat and release are `public` at the
 * router because the `seat_token` in the body, when present, is the sole credential; the
 * handler authenticates a bearer key (scope `sessions:write`) otherwise.
 */
import { defineOperation } from '../operation.js';
import { ErrorBodySchema, OkSchema } from '../resources/common.js';
import {
  MintQueuedSchema,
  MintReadySchema,
  MintSessionBody,
  QueueQuery,
  QueueStatusSchema,
  SeatTokenBody,
  SessionParams,
  SessionSchema,
  TicketParams,
  TranscriptSchema,
} from '../resources/session.js';

const mintAuth = { anyOf: ['sessions:write', 'session:connect'] } as const;

export const mintSession = defineOperation({
  id: 'sessions.mint',
  method: 'post',
  path: '/api/v1/sessions',
  summary: 'Mint a live session (201), or join the queue (202) when every seat is occupied',
  description:
    'Secret key (sessions:write) or publishable key (session:connect, stock personas only, Origin-checked). ' +
    'Re-POST the same body with `queue_ticket` after `retry_after` seconds, at once when `state` is claimable.',
  auth: mintAuth,
  body: MintSessionBody,
  responses: {
    201: { description: 'Seat granted', schema: MintReadySchema },
    202: { description: 'Queued', schema: MintQueuedSchema, headers: { 'Retry-After': 'seconds' } },
    402: {
      description: 'Demo-tier quota exhausted (reset_at, retry_after)',
      schema: ErrorBodySchema,
    },
    429: {
      description: 'rate_limited or concurrency_limit (Retry-After)',
      schema: ErrorBodySchema,
    },
    503: {
      description: 'fleet_busy, protocol_unavailable, custom_avatar_unavailable',
      schema: ErrorBodySchema,
    },
  },
  cli: { group: 'sessions', verb: 'mint' },
});

export const getSession = defineOperation({
  id: 'sessions.get',
  method: 'get',
  path: '/api/v1/sessions/{sessionId}',
  summary: 'Get a session record (pending right after the mint)',
  auth: { anyOf: ['sessions:read'] },
  params: SessionParams,
  responses: { 200: { description: 'The session', schema: SessionSchema } },
  cli: { group: 'sessions', verb: 'get' },
});

export const getTranscript = defineOperation({
  id: 'sessions.transcript',
  method: 'get',
  path: '/api/v1/sessions/{sessionId}/transcript',
  summary: 'Transcript of a session (transcripts:read, secret keys only)',
  auth: { anyOf: ['transcripts:read'] },
  params: SessionParams,
  responses: { 200: { description: 'Transcript', schema: TranscriptSchema } },
  cli: { group: 'sessions', verb: 'transcript' },
});

export const deleteSession = defineOperation({
  id: 'sessions.delete',
  method: 'delete',
  path: '/api/v1/sessions/{sessionId}',
  summary: 'Erase an ended session (409 session_live while live; idempotent)',
  auth: { anyOf: ['sessions:write'] },
  params: SessionParams,
  responses: {
    204: { description: 'Erased (also when already erased)' },
    409: { description: 'session_live', schema: ErrorBodySchema },
  },
  cli: { group: 'sessions', verb: 'delete' },
});

export const heartbeatSession = defineOperation({
  id: 'sessions.heartbeat',
  method: 'post',
  path: '/api/v1/sessions/{sessionId}/heartbeat',
  summary: 'Keep a seat held before connecting (seat_token or sessions:write)',
  auth: 'public',
  params: SessionParams,
  body: SeatTokenBody,
  responses: { 200: { description: 'Held', schema: OkSchema } },
  cli: { group: 'sessions', verb: 'heartbeat' },
});

export const releaseSession = defineOperation({
  id: 'sessions.release',
  method: 'post',
  path: '/api/v1/sessions/{sessionId}/release',
  summary: 'Free the seat early (seat_token or sessions:write)',
  auth: 'public',
  params: SessionParams,
  body: SeatTokenBody,
  responses: { 200: { description: 'Released', schema: OkSchema } },
  cli: { group: 'sessions', verb: 'release' },
});

export const queueStatus = defineOperation({
  id: 'sessions.queue.status',
  method: 'get',
  path: '/api/v1/sessions/queue/{ticket}',
  summary:
    'Queue ticket status: a pure read and a liveness touch; always 200 (expired when unknown)',
  description:
    'Secret key (sessions:write), publishable or device key (session:connect), or a trusted-issuer id_token ' +
    '(`Authorization: Bearer <id_token>`, with query workspace_id; 400 workspace_id_required without it, ' +
    '401 unauthorized when the token does not verify against the workspace trusted issuers).',
  auth: mintAuth,
  params: TicketParams,
  query: QueueQuery,
  responses: { 200: { description: 'Ticket state', schema: QueueStatusSchema } },
  cli: { group: 'sessions', verb: 'queue status' },
});

export const queueCancel = defineOperation({
  id: 'sessions.queue.cancel',
  method: 'delete',
  path: '/api/v1/sessions/queue/{ticket}',
  summary: 'Leave the queue; always 204 (a reserved seat passes to the next waiter)',
  auth: mintAuth,
  params: TicketParams,
  query: QueueQuery,
  responses: { 204: { description: 'Gone' } },
  cli: { group: 'sessions', verb: 'queue cancel' },
});

export const sessionOperations = [
  queueStatus,
  queueCancel,
  mintSession,
  getSession,
  getTranscript,
  deleteSession,
  heartbeatSession,
  releaseSession,
];
