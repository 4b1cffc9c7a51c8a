/**
 * The edge's downlink, decoded once per protocol for every client: the Node client
 * (src/client/edge-v1.ts, edge-v2.ts, over `ws`) and the browser client
 * (src/browser/sockets.ts, over the page's WebSocket) feed the frames they receive here
 * and emit what comes out. Pure: no Node built-in, no package (the page loads it as is).
 *
 * A frame is a `string` (a text message) or the bytes of a binary one. Each call returns
 * the events the frame means, in order (none for a frame that means nothing to a client).
 */
import type { EdgeEvent } from './events.js';
import { parseFrame } from './emitter.js';
import { errorText, mapControl } from './frames.js';
import { TAG_MEDIA } from './protocol.js';

export type EdgeFrame = string | Uint8Array;
export const V1_SOCKETS = ['/mse', '/mic_stream', '/events'] as const;
export type V1Socket = (typeof V1_SOCKETS)[number];
export const V2_SOCKET = '/v2/session';

/** Media bytes counted across a connection (`total` bytes, `segments` fragments so far). */
function mediaCounter() {
  let total = 0;
  let segments = 0;
  return (bytes: Uint8Array): EdgeEvent => {
    total += bytes.byteLength;
    segments++;
    return { type: 'media', bytes, total, segments };
  };
}

const clip = (text: string) => text.slice(0, 200);

/**
 * Protocol v1 (spec 4.6): /mse sends `{ mime }` once, then fMP4 segments; /mic_stream sends
 * partial, turn and error (spec 6.1); /events sends agent_event and speech (docs/edge.md)
 * and telemetry (a turn there is telemetry: /mic_stream has it).
 */
export function v1Decoder(): (socket: V1Socket, frame: EdgeFrame) => EdgeEvent[] {
  const media = mediaCounter();
  let mimeSeen = false;
  return (socket, frame) => {
    if (typeof frame !== 'string') return socket === '/mse' ? [media(frame)] : []; // nothing binary is defined on the others
    const f = parseFrame(frame);
    if (!f)
      return [{ type: 'error', error: `unreadable ${socket} message: ${clip(frame)}`, socket }];
    if (socket === '/mse') {
      if (typeof f.mime === 'string' && !mimeSeen) {
        mimeSeen = true;
        return [{ type: 'media_init', mime: f.mime }];
      }
      const error = f.type === 'error' ? errorText(f) : `unexpected /mse message: ${clip(frame)}`;
      return [{ type: 'error', error, socket }];
    }
    if (socket === '/events' && f.type !== 'agent_event' && f.type !== 'speech')
      return [{ type: 'telemetry', frame: f }];
    return [mapControl(f, socket)];
  };
}

/**
 * Protocol v2 (docs/protocol-v2.md): binary frames tagged 0x01 are fMP4; text frames are
 * the `session` message first (telemetry too, and the codec string as `media_init`, or
 * `render_disabled` for a brain-only session), then the frames v1 spreads over three
 * sockets. `chat_ack` and `pong` answer what this client sent and are not events.
 */
export function v2Decoder(): (frame: EdgeFrame) => EdgeEvent[] {
  const media = mediaCounter();
  const socket = V2_SOCKET;
  return (frame) => {
    if (typeof frame !== 'string') {
      if (frame[0] !== TAG_MEDIA) {
        const tag = `0x${(frame[0] ?? 0).toString(16)}`;
        return [{ type: 'error', error: `unknown binary tag ${tag}`, socket }];
      }
      return [media(frame.subarray(1))];
    }
    const f = parseFrame(frame);
    if (!f)
      return [{ type: 'error', error: `unreadable ${socket} message: ${clip(frame)}`, socket }];
    switch (f.type) {
      case 'session': {
        const out: EdgeEvent[] = [{ type: 'telemetry', frame: f }];
        if (typeof f.mime === 'string') out.push({ type: 'media_init', mime: f.mime });
        else if (f.mime === null && f.render === false)
          out.push({
            type: 'error',
            error: 'render_disabled: this session is brain-only (no media)',
            socket,
          });
        else if (f.mime !== null || typeof f.render !== 'boolean')
          out.push({
            type: 'error',
            error: `unreadable session message: ${clip(JSON.stringify(f))}`,
            socket,
          });
        return out;
      }
      case 'chat_ack':
      case 'pong':
        return [];
      default:
        return [mapControl(f, socket)];
    }
  };
}
