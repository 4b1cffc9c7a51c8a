import { WebSocket } from 'ws';
import type { EdgeSentMessage } from '../../contract/edge/messages.js';
import type { Channel, Stream } from '../session/channel.js';

/**
 * A Channel over a WebSocket. Media is dropped for a client that stops reading (more than
 * `maxBufferedBytes` queued) rather than growing the box's memory without bound; the
 * client sees the gap as a stall, the session goes on.
 */
export function wsChannel(
  ws: WebSocket,
  streams: Stream[],
  frame: { mime(mime: string): EdgeSentMessage | null; media(buf: Buffer): Buffer | Buffer[] },
  maxBufferedBytes = 8 * 1024 * 1024,
): Channel {
  const open = () => ws.readyState === WebSocket.OPEN;
  return {
    streams: new Set(streams),
    sendJson(msg) {
      if (open()) ws.send(JSON.stringify(msg));
    },
    sendMime(mime) {
      const m = frame.mime(mime);
      if (m && open()) ws.send(JSON.stringify(m));
    },
    sendMedia(buf) {
      if (!open() || ws.bufferedAmount > maxBufferedBytes) return;
      const out = frame.media(buf);
      if (Array.isArray(out)) ws.send(Buffer.concat(out), { binary: true });
      else ws.send(out, { binary: true });
    },
    close(code, reason) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        ws.close(code, reason.slice(0, 120));
    },
  };
}

/** A `ws` message as one Buffer (it may arrive as a Buffer, an ArrayBuffer or fragments). */
export function messageBytes(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}
