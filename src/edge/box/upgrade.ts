/**
 * WebSocket upgrades of a box (spec 4.6): the path picks the endpoint, the session token
 * (`?token=` or `Authorization: Bearer`) is verified offline before the handshake
 * completes, and a refused upgrade is answered with an HTTP status and the JSON error
 * envelope (`{ error, message }`) instead of a silent drop.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { type Clock, type TimerHandle } from '../../contract/clock.js';
import { boundText } from '../../contract/echo.js';
import type { EdgeSession } from '../session/edge-session.js';
import { attachEvents, attachMic, attachMse } from '../sockets/v1.js';
import { attachV2, V2_SUBPROTOCOL } from '../sockets/v2.js';
import { SessionRefused, type BoxSessions } from './box-sessions.js';
import { peekSub as peekSubject } from './chat-route.js';
import { checkOrigin, OriginRefused } from './origin.js';
import { TokenRefused, tokenOf, type TokenVerifier } from './session-token.js';

type Endpoint = 'mse' | 'mic_stream' | 'events' | 'v2';
const endpoints: Record<string, Endpoint> = {
  '/mse': 'mse',
  '/mic_stream': 'mic_stream',
  '/events': 'events',
  '/v2/session': 'v2',
};

/**
 * Largest client message before the socket closes (1009). A v2 mic frame is 3,201 bytes,
 * but a client sending seconds of audio in one message is a common mistake: up to 1 MiB
 * (about 30 s of PCM) it gets a `bad_frame_size` error naming the rule instead.
 */
const MAX_PAYLOAD = 1024 * 1024;

/**
 * A client that vanishes without a close (lid shut, network gone) would hold its seat until
 * the cap: every socket is pinged this often, and one that missed two pings in a row is
 * dropped, which ends the session like any socket loss (spec 3). A ping counts only once
 * it was written out: a clock jump with no I/O between beats (tests drive the clock) then
 * never judges a healthy client.
 */
export const HEARTBEAT_MS = 15_000;

export interface UpgradeDeps {
  clock: Clock;
  verify: TokenVerifier;
  sessions: BoxSessions;
  chat(s: EdgeSession, text: string): string;
}

export function refuse(socket: Duplex, status: number, code: string, message: string): void {
  // Bounded like every error body (src/contract/echo.ts): a message may repeat the Origin.
  const body = JSON.stringify({ error: code, message: boundText(message) });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function upgradeHandler(d: UpgradeDeps) {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD,
    handleProtocols: (offered) => (offered.has(V2_SUBPROTOCOL) ? V2_SUBPROTOCOL : false),
  });

  const pings = new WeakMap<WebSocket, { answered: boolean; sent: boolean; missed: number }>();
  let beat: TimerHandle | null = null;
  const heartbeat = () => {
    beat = null;
    for (const ws of wss.clients) {
      const p = pings.get(ws);
      if (!p || !p.sent) continue;
      p.missed = p.answered ? 0 : p.missed + 1;
      if (p.missed >= 2) {
        ws.terminate();
        continue;
      }
      p.answered = false;
      p.sent = false;
      ws.ping(undefined, undefined, () => (p.sent = true));
    }
    if (wss.clients.size > 0) beat = d.clock.setTimeout(heartbeat, HEARTBEAT_MS);
  };

  const handle = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://box');
    const ep = endpoints[url.pathname];
    if (!ep)
      return refuse(
        socket,
        404,
        'not_found',
        `no WebSocket endpoint ${url.pathname}; use /mse, /mic_stream, /events or /v2/session`,
      );
    const token = tokenOf(url, req.headers.authorization);
    if (!token)
      return refuse(
        socket,
        401,
        'unauthorized',
        'missing session token: pass ?token=<session_token> or Authorization: Bearer <session_token>',
      );
    let s: EdgeSession;
    try {
      const sub = peekSubject(token);
      const known = sub ? d.sessions.get(sub) : undefined;
      const claims = await d.verify(token, { allowExpired: !!known && !known.live.ended });
      checkOrigin(claims, req.headers.origin);
      const protocol = typeof claims.session.protocol === 'number' ? claims.session.protocol : 1;
      if (ep === 'v2' && protocol !== 2)
        return refuse(
          socket,
          400,
          'protocol_mismatch',
          'this session was minted for v1: use /mse, /mic_stream and /events (mint with protocol_versions: [2] for /v2/session)',
        );
      if ((ep === 'mse' || ep === 'mic_stream') && protocol === 2)
        return refuse(
          socket,
          400,
          'protocol_mismatch',
          'this session was minted for v2: connect to /v2/session with subprotocol svc.avatar.v2',
        );
      if (
        ep === 'v2' &&
        !String(req.headers['sec-websocket-protocol'] ?? '')
          .split(',')
          .map((p) => p.trim())
          .includes(V2_SUBPROTOCOL)
      ) {
        return refuse(
          socket,
          400,
          'subprotocol_required',
          `offer the WebSocket subprotocol ${V2_SUBPROTOCOL}`,
        );
      }
      s = await d.sessions.open(claims);
    } catch (err) {
      if (err instanceof TokenRefused)
        return refuse(socket, err.code === 'wrong_box' ? 403 : 401, err.code, err.message);
      if (err instanceof SessionRefused) return refuse(socket, err.status, err.code, err.message);
      if (err instanceof OriginRefused) return refuse(socket, 403, err.code, err.message);
      return refuse(
        socket,
        503,
        'box_unavailable',
        `the box could not take this connection: ${(err as Error).message}`,
      );
    }
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      ws.on('error', () => ws.terminate());
      const p = { answered: true, sent: true, missed: 0 };
      pings.set(ws, p);
      ws.on('pong', () => (p.answered = true));
      beat ??= d.clock.setTimeout(heartbeat, HEARTBEAT_MS);
      if (ep === 'mse') attachMse(ws, s);
      else if (ep === 'mic_stream') attachMic(ws, s);
      else if (ep === 'events') attachEvents(ws, s);
      else attachV2(ws, s, (text) => d.chat(s, text));
    });
  };

  return {
    wss,
    stopHeartbeat(): void {
      beat?.cancel();
      beat = null;
    },
    onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      socket.on('error', () => socket.destroy());
      handle(req, socket, head).catch(() =>
        refuse(socket, 500, 'internal_error', 'upgrade failed'),
      );
    },
  };
}
