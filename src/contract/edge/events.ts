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

export type EdgeEvent =
  | { type: 'status'; state: 'connecting' | 'connected'; protocol: 1 | 2 }
  /** First /mse text message: the codec string for the decoder (never hardcoded). */
  | { type: 'media_init'; mime: string }
  /** One binary fMP4 segment from /mse, in arrival order; `total` counts every byte so far. */
  | { type: 'media'; bytes: Uint8Array; total: number; segments: number }
  /** Interim transcript of the user (spec 6.1). */
  | { type: 'partial'; text: string }
  /**
   * A committed turn: what the user said and the avatar's reply text (spec 6.1); `brain`
   * only in brain-only sessions (config `render: false`, docs/edge.md).
   */
  | {
      type: 'turn';
      text: string;
      reply: string;
      language?: string;
      speech_id?: string;
      greeting?: boolean;
      brain?: BrainPayload;
    }
  /** A reply cut by barge-in: `said` is what was actually spoken (docs/protocol-v2.md). */
  | { type: 'speech'; speech_id?: string; status: string; said?: string }
  /** An `{ type: error }` message from the edge, or a frame the client could not read. */
  | { type: 'error'; error: string; socket?: string }
  /** Tool activity from /events (spec 6.1): `calling`, `image` (with url and caption). */
  | {
      type: 'agent_event';
      kind: string;
      tool?: string;
      call_id?: string;
      url?: string;
      caption?: string;
    }
  /** Any other /events frame (telemetry and status at about 10 Hz; shapes not shown). */
  | { type: 'telemetry'; frame: Record<string, unknown> }
  /** The connection is over; emitted exactly once. */
  | { type: 'closed'; reason: CloseReason; code?: number; detail?: string; socket?: string };

/** The `brain` payload of a brain-only session's turn (docs/edge.md "Message shapes"). */
export interface BrainPayload {
  /** Which brain answered (`local`, or the `--llm-model` of an OpenAI-compatible upstream). */
  name: string;
  reply: string;
  /** Token counts the brain reported (0 when it reported none). */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

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
