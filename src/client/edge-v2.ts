/**
 * Protocol v2 (docs/protocol-v2.md; spec 4.6 names `/v2/session` and subprotocol
 * `svc.avatar.v2`, 6.1 leaves the messages "not shown"): one socket both ways. JSON text
 * for control; binary frames tagged by their first byte: 0x01 fMP4 from the box, 0x02 one
 * PCM16 mic frame from the client. Typed text is a `chat` message, not POST /chat.
 */
import type { z } from 'zod';
import { TAG_MIC, V2_SUBPROTOCOL, type V2Chat, type V2Hello } from '../contract/edge/messages.js';
import WebSocket from 'ws';
import { v2Decoder } from '../contract/edge/decode.js';
import { EdgeEmitter, reasonForClose } from './edge-emitter.js';
import type { ClosedEvent, EdgeConnection } from './edge-events.js';
import { edgeSocketUrl } from './edge-url.js';
import { EdgeClosedError, type EdgeConnectOptions } from './edge-v1.js';
import { refusal } from './edge-frames.js';

export { V2_SUBPROTOCOL };

export function connectV2(opts: EdgeConnectOptions): EdgeConnection {
  const em = new EdgeEmitter();
  let closing = false;
  let open = false;
  em.emit({ type: 'status', state: 'connecting', protocol: 2 });
  const ws = new WebSocket(
    edgeSocketUrl(opts.connectUrl, '/v2/session', opts.token),
    [V2_SUBPROTOCOL],
    { origin: opts.origin },
  );
  ws.binaryType = 'nodebuffer';
  const end = (e: ClosedEvent) => {
    em.emit(e);
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
      ws.close(1000, 'client closed');
  };
  const ready = new Promise<void>((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        const e = refusal(res.statusCode ?? 0, body, '/v2/session');
        end(e);
        reject(new EdgeClosedError(e));
      });
    });
    ws.on('error', (err) => {
      if (open) return;
      const e: ClosedEvent = {
        type: 'closed',
        reason: closing ? 'client' : 'lost',
        detail: err.message,
        socket: '/v2/session',
      };
      end(e);
      reject(new EdgeClosedError(e));
    });
    ws.on('open', () => {
      open = true;
      ws.send(
        JSON.stringify({ type: 'hello', lang: opts.lang ?? 'en' } satisfies z.input<
          typeof V2Hello
        >),
      );
      em.emit({ type: 'status', state: 'connected', protocol: 2 });
      resolve();
    });
    ws.on('close', (code, why) => {
      const e: ClosedEvent = closing
        ? { type: 'closed', reason: 'client', code }
        : {
            type: 'closed',
            reason: reasonForClose(code),
            code,
            detail: why.toString() || undefined,
            socket: '/v2/session',
          };
      end(e);
      reject(new EdgeClosedError(e));
    });
  });
  ready.catch(() => undefined);

  const decode = v2Decoder();
  ws.on('message', (data: Buffer, isBinary) => {
    for (const e of decode(isBinary ? data : data.toString('utf8'))) em.emit(e);
  });

  return {
    protocol: 2,
    on: (l) => em.on(l),
    ready,
    closed: em.closed,
    sendAudio(frame) {
      if (ws.readyState !== WebSocket.OPEN) return;
      const tagged = Buffer.allocUnsafe(frame.byteLength + 1);
      tagged[0] = TAG_MIC;
      tagged.set(frame, 1);
      ws.send(tagged);
    },
    async chat(text) {
      if (ws.readyState !== WebSocket.OPEN) throw new Error('the /v2/session socket is not open');
      ws.send(JSON.stringify({ type: 'chat', text } satisfies z.input<typeof V2Chat>));
    },
    async close() {
      if (!em.isClosed) {
        closing = true;
        end({ type: 'closed', reason: 'client' });
      }
      return em.closed;
    },
  };
}
