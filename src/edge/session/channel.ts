/**
 * One client connection as the session sees it: what it carries and how to send it. v1
 * splits the three streams over three sockets (/mse media, /mic_stream control, /events
 * events); v2 carries all of them on one socket (docs/protocol-v2.md).
 */
import type { EdgeSentMessage } from '../../contract/edge/messages.js';

export type Stream = 'media' | 'control' | 'events';

export interface Channel {
  readonly streams: ReadonlySet<Stream>;
  /** A JSON text message (control or events), one of the contract's (`src/contract/edge/messages.ts`). */
  sendJson(msg: EdgeSentMessage): void;
  /** The media announcement (`{ mime }` on /mse), sent once before the first media bytes. */
  sendMime(mime: string): void;
  /** fMP4 bytes (init segment or one fragment). */
  sendMedia(buf: Buffer): void;
  /** Close with a WebSocket code and reason (docs/edge.md lists them). */
  close(code: number, reason: string): void;
}

/** WebSocket close codes the box uses (4000-4999 is the application range of RFC 6455). */
export const CloseCode = {
  /** The client closed, or the session was released. */
  normal: 1000,
  /** The box is shutting down or deregistered. */
  goingAway: 1001,
  /** The session reached `cap_seconds` (spec 8). */
  sessionCap: 4001,
  /** Ended by the control plane (release, reaper) or another socket's loss. */
  sessionEnded: 4002,
} as const;
