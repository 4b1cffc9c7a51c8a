import type { z } from 'zod';
import type {
  AgentImageEvent,
  BrainPayloadSchema,
  ErrorMessage,
  MseInit,
  PartialMessage,
  SpeechMessage,
  TurnMessage,
} from './messages.js';

/**
 * What a live session's edge tells the client (spec 4.6, 6.1), as one typed stream for the
 * CLI view, the NDJSON printer, smoke and demo alike. v1 (three sockets) and v2 (one
 * socket) both map onto these.
 */

/** Why the connection ended, in words a user can act on. */
export type CloseReason =
  /** The client closed it (Ctrl-C, `close()`). */
  | 'client'
  /** The edge closed it normally (session cap reached, session released or ended elsewhere). */
  | 'server'
  /** A socket dropped without a close handshake (edge stopped, network lost). */
  | 'lost'
  /** The upgrade was refused (bad or expired token, session already connected). */
  | 'refused';

/*
 * The events of the edge's frames are the contract's message schemas (messages.ts) as the
 * shared decoder (decode.ts) reads them: a turn and a partial whole (missing strings read
 * as ''), an error's code with the socket it came on, and speech and agent_event with
 * every field but `type` optional and an open `status`/`kind` (a newer edge may add one).
 */
type Msg<S extends z.ZodType> = z.output<S>;
/** A frame read leniently: `type` as sent, every other field optional. */
type Lenient<T extends { type: string }> = Pick<T, 'type'> & Partial<Omit<T, 'type'>>;

export type EdgeEvent =
  | { type: 'status'; state: 'connecting' | 'connected'; protocol: 1 | 2 }
  /** First /mse text message (v2: the `session` message's `mime`): the codec string for the decoder (never hardcoded). */
  | ({ type: 'media_init' } & Msg<typeof MseInit>)
  /** One binary fMP4 segment from /mse, in arrival order; `total` counts every byte so far. */
  | { type: 'media'; bytes: Uint8Array; total: number; segments: number }
  /** Interim transcript of the user (spec 6.1). */
  | Msg<typeof PartialMessage>
  /**
   * A committed turn: what the user said and the avatar's reply text (spec 6.1); `brain`
   * only in brain-only sessions (config `render: false`, docs/edge.md).
   */
  | Msg<typeof TurnMessage>
  /** A reply started, or cut by barge-in: `said` is what was actually spoken (docs/protocol-v2.md). */
  | (Omit<Lenient<Msg<typeof SpeechMessage>>, 'status'> & { status: string })
  /** An `{ type: error }` message from the edge (code and detail in one line), or a frame the client could not read. */
  | (Pick<Msg<typeof ErrorMessage>, 'type' | 'error'> & { socket?: string })
  /** Tool activity from /events (spec 6.1): `calling`, `image` (with url and caption), `image_pending`. */
  | ({ type: 'agent_event'; kind: string } & Partial<
      Omit<Msg<typeof AgentImageEvent>, 'type' | 'kind'>
    >)
  /** Any other /events frame (telemetry and status at about 10 Hz; shapes not shown), and v2's `session`. */
  | { type: 'telemetry'; frame: Record<string, unknown> }
  /** The connection is over; emitted exactly once. */
  | { type: 'closed'; reason: CloseReason; code?: number; detail?: string; socket?: string };

/** The `brain` payload of a brain-only session's turn (docs/edge.md "Message shapes"): which brain answered (`local`, or the `--llm-model` of an OpenAI-compatible upstream), its reply, the token counts it reported (0 when it reported none). */
export type BrainPayload = Msg<typeof BrainPayloadSchema>;

export type ClosedEvent = Extract<EdgeEvent, { type: 'closed' }>;

/** One live connection to an edge, whatever the protocol. */
export interface EdgeConnection {
  readonly protocol: 1 | 2;
  /** Subscribe to events; returns the unsubscribe. Events before subscribing are not replayed. */
  on(listener: (e: EdgeEvent) => void): () => void;
  /** Resolves once every socket is open (rejects with the close if the upgrade fails). */
  readonly ready: Promise<void>;
  /** Send one 100 ms frame of 16 kHz mono PCM16 (3,200 bytes) on the uplink. */
  sendAudio(frame: Uint8Array): void;
  /** Inject a typed user message (v1: POST /chat?token=; v2: on the socket). */
  chat(text: string): Promise<void>;
  /** Close every socket; resolves with the closed event (reason `client` unless it already ended). */
  close(): Promise<ClosedEvent>;
  /** Resolves when the connection ends, however it ends. */
  readonly closed: Promise<ClosedEvent>;
}

/** Spec 4.6: 16 kHz mono PCM16, 1,600 samples (100 ms) per frame. */
export const MIC_SAMPLE_RATE = 16_000;
export const MIC_FRAME_SAMPLES = 1_600;
export const MIC_FRAME_BYTES = MIC_FRAME_SAMPLES * 2;
export const MIC_FRAME_MS = 100;
