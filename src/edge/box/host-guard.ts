/**
 * The Host check (src/contract/hosts.ts) in front of a Node HTTP server: every request and
 * every WebSocket upgrade with a Host the server does not accept is answered before any
 * route (or handshake) runs. Used by each box and by the control plane (src/emulator/start.ts).
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { refusalText, type HostPolicy } from '../../contract/hosts.js';

/**
 * Keep-alive: the server advertises `Keep-Alive: timeout=5` (Node's default) but holds an idle
 * connection for 65 s. Node's fetch (undici) drops an idle connection 2 s before the
 * advertised timeout, counted in ticks of its own event loop: a busy process counts less time
 * than has passed and reuses the connection late. Closing at the advertised time would reset
 * that request (`fetch failed`, `other side closed` / `read ECONNRESET`; issue 32 item 16).
 */
export const KEEP_ALIVE_ADVERTISED_S = 5;
export const KEEP_ALIVE_HOLD_MS = 65_000;

/** `createServer` for `serve()` of @hono/node-server: the policy runs first on every request. */
export function hostGuardedServer(policy: HostPolicy) {
  return (options: ServerOptions, listener: RequestListener): Server => {
    const server = createServer(options, (req, res) => {
      const refusal = policy.check(req.headers.host);
      if (!refusal) {
        // Set by hand, Node does not derive it from `keepAliveTimeout` (which it would advertise).
        if (res.shouldKeepAlive) res.setHeader('keep-alive', `timeout=${KEEP_ALIVE_ADVERTISED_S}`);
        return listener(req, res);
      }
      const body = JSON.stringify({ error: refusal.error, message: refusal.message });
      res.writeHead(refusal.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      res.end(body);
    });
    server.keepAliveTimeout = KEEP_ALIVE_HOLD_MS;
    return server;
  };
}

/** Refuse an upgrade with a foreign or malformed Host before the handshake; true when refused. */
export function refuseForeignUpgrade(
  policy: HostPolicy,
  req: IncomingMessage,
  socket: Duplex,
): boolean {
  const refusal = policy.check(req.headers.host);
  if (!refusal) return false;
  socket.on('error', () => socket.destroy());
  socket.end(refusalText(refusal));
  return true;
}

/** Accept the address a server ended up bound to (`localhost` may resolve to `::1`). */
export function bindPolicy(
  policy: HostPolicy,
  server: Server,
  configured: string | undefined,
): void {
  const addr = server.address() as AddressInfo | null;
  policy.bind(...(configured ? [configured] : []), ...(addr ? [addr.address] : []));
}
