/**
 * Protocol v1 (spec 4.6): three sockets on the edge, `?token=` on each upgrade.
 * - /mse: first text message `{ mime }`, then binary fMP4 segments in arrival order;
 * - /mic_stream: we send `{ op: hello, lang }`, then 3,200-byte PCM16 frames; the edge
 *   sends `partial`, `turn` and `error` text messages (spec 6.1);
 * - /events: `{ type: agent_event, ... }` plus telemetry frames.
 * Typed text goes over HTTP: `POST /chat?token=` with `{ text }`.
 * When any socket ends, the whole connection ends (one session, one lifetime).
 */
import type { z } from 'zod';
import type { V1Hello } from '../contract/edge/messages.js';
import { edgeChat } from '../contract/operations/boxes.js';
import WebSocket from 'ws';
import { V1_SOCKETS, v1Decoder, type V1Socket } from '../contract/edge/decode.js';
import { EdgeEmitter, parseFrame, reasonForClose } from './edge-emitter.js';
import type { ClosedEvent, EdgeConnection } from './edge-events.js';
import { refusal } from './edge-frames.js';
import { edgeHttpUrl, edgeSocketUrl } from './edge-url.js';

export interface EdgeConnectOptions {
  /** `connect_url` from the mint (an https base; http on a local emulator). */
  connectUrl: string;
  /** `session_token` from the mint (valid about 60 s: connect promptly). */
  token: string;
  /** Language announced in the /mic_stream hello (BCP-47; default `en`). */
  lang?: string;
  /**
   * Sent as `Origin` on every upgrade and on `POST /chat` (what a browser on that page
   * sends): the edge refuses one outside the mint's `domain_allowlist` with 403
   * `origin_not_allowed` (docs/edge.md). Unset, no Origin is sent (a native client).
   */
  origin?: string;
}

export function connectV1(opts: EdgeConnectOptions): EdgeConnection {
  const em = new EdgeEmitter();
  const sockets = new Map<string, WebSocket>();
  let closing = false;

  const endAll = (e: ClosedEvent) => {
    em.emit(e);
    for (const ws of sockets.values()) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        ws.close(1000, 'client closed');
    }
  };

  em.emit({ type: 'status', state: 'connecting', protocol: 1 });
  const opened = V1_SOCKETS.map(
    (path) =>
      new Promise<void>((resolve, reject) => {
        const ws = new WebSocket(edgeSocketUrl(opts.connectUrl, path, opts.token), {
          origin: opts.origin,
        });
        ws.binaryType = 'nodebuffer';
        sockets.set(path, ws);
        let open = false;
        ws.on('unexpected-response', (_req, res) => {
          // The upgrade answered HTTP: read its error envelope for the detail.
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => {
            const e = refusal(res.statusCode ?? 0, body, path);
            endAll(e);
            reject(new EdgeClosedError(e));
          });
        });
        ws.on('error', (err) => {
          if (open) return; // 'close' follows and says why
          const e: ClosedEvent = {
            type: 'closed',
            reason: closing ? 'client' : 'lost',
            detail: err.message,
            socket: path,
          };
          endAll(e);
          reject(new EdgeClosedError(e));
        });
        ws.on('open', () => {
          open = true;
          if (path === '/mic_stream')
            ws.send(
              JSON.stringify({ op: 'hello', lang: opts.lang ?? 'en' } satisfies z.input<
                typeof V1Hello
              >),
            );
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
                socket: path,
              };
          endAll(e);
          reject(new EdgeClosedError(e));
        });
        ws.on('message', (data, isBinary) => onMessage(path, data as Buffer, isBinary));
      }),
  );

  const decode = v1Decoder();
  function onMessage(path: V1Socket, data: Buffer, isBinary: boolean): void {
    for (const e of decode(path, isBinary ? data : data.toString('utf8'))) em.emit(e);
  }

  const ready = Promise.all(opened).then(() =>
    em.emit({ type: 'status', state: 'connected', protocol: 1 }),
  );
  ready.catch(() => undefined); // reported through `closed` too

  return {
    protocol: 1,
    on: (l) => em.on(l),
    ready,
    closed: em.closed,
    sendAudio(frame) {
      const ws = sockets.get('/mic_stream');
      if (ws?.readyState === WebSocket.OPEN) ws.send(frame);
    },
    async chat(text) {
      const res = await fetch(edgeHttpUrl(opts.connectUrl, edgeChat.path, opts.token), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.origin ? { origin: opts.origin } : {}),
        },
        body: JSON.stringify({ text }),
      });
      if (!res.ok) throw new EdgeChatError(res.status, await res.text().catch(() => ''));
    },
    async close() {
      if (!em.isClosed) {
        closing = true;
        endAll({ type: 'closed', reason: 'client' });
      }
      return em.closed;
    },
  };
}

/** The connection ended before it was ready. */
export class EdgeClosedError extends Error {
  constructor(readonly event: ClosedEvent) {
    super(
      `edge connection ${event.reason}${event.socket ? ` on ${event.socket}` : ''}${event.detail ? `: ${event.detail}` : ''}`,
    );
    this.name = 'EdgeClosedError';
  }
}

/** POST /chat answered an error. */
export class EdgeChatError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    const env = parseFrame(body);
    super(
      `POST /chat answered ${status}${env?.error ? ` ${String(env.error)}` : ''}${env?.detail ? `: ${String(env.detail)}` : ''}`,
    );
    this.name = 'EdgeChatError';
  }
}
