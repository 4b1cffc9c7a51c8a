/**
 * One GPU edge box: its own HTTP server (a Hono app on its own port), registered with the
 * control plane over the internal box API. This issue gives it seats and session-token
 * verification; the next one adds the WebSocket media endpoints (/mse, /mic_stream,
 * /events, /v2/session, /chat), which call `connect` / `disconnect` below.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { ControlPlaneLink } from './control-plane.js';
import { sessionTokenVerifier, type SessionClaims } from './session-token.js';

export interface BoxOptions {
  controlPlaneUrl: string;
  boxId: string;
  /** Per-box secret issued by the control plane. */
  secret: string;
  seats: number;
  protocols: number[];
  customAvatars: boolean;
  verified: boolean;
  maxCapSeconds?: number | null;
  host?: string;
  port?: number;
}

export interface RunningBox {
  id: string;
  /** `http://host:port` of this box (the mint's `connect_url`). */
  baseUrl: string;
  app: Hono;
  /** Verify a session token minted for this box (spec 5.4). */
  verify(token: string): Promise<SessionClaims>;
  /** A client connected with this token: report the seat event; returns the claims. */
  connect(token: string): Promise<SessionClaims>;
  /** The client's sockets closed: the seat frees (spec 3). */
  disconnect(sessionId: string): Promise<void>;
  /** A committed turn, for the transcript store. */
  reportTurn(sessionId: string, turn: { seq: number; user_text: string; reply_text: string }): Promise<void>;
  /** Sessions connected on this box. */
  readonly connected: ReadonlySet<string>;
  stop(): Promise<void>;
}

export async function startBox(opts: BoxOptions): Promise<RunningBox> {
  const cp = new ControlPlaneLink(opts.controlPlaneUrl.replace(/\/+$/, ''), opts.boxId, opts.secret);
  const verify = sessionTokenVerifier(cp.baseUrl, opts.boxId);
  const connected = new Set<string>();
  const app = new Hono();
  app.get('/health', (c) =>
    c.json({ ok: true, box_id: opts.boxId, seats: opts.seats, protocols: opts.protocols, connected: connected.size }),
  );

  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: opts.host ?? '127.0.0.1' }, () => resolve(s));
    s.on('error', reject);
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const baseUrl = `http://${host}:${addr.port}`;

  await cp.must('/register', {
    base_url: baseUrl,
    seats: opts.seats,
    protocols: opts.protocols,
    custom_avatars: opts.customAvatars,
    verified: opts.verified,
    max_cap_seconds: opts.maxCapSeconds ?? null,
  });

  let stopped = false;
  return {
    id: opts.boxId,
    baseUrl,
    app,
    connected,
    verify,
    async connect(token) {
      const claims = await verify(token);
      await cp.must('/seats/events', { session_id: claims.sub, event: 'connect' });
      connected.add(claims.sub);
      return claims;
    },
    async disconnect(sessionId) {
      connected.delete(sessionId);
      await cp.must('/seats/events', { session_id: sessionId, event: 'close' });
    },
    async reportTurn(sessionId, turn) {
      await cp.must(`/sessions/${encodeURIComponent(sessionId)}/turns`, turn);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await cp.post('/deregister', {}).catch(() => undefined);
      await cp.close();
      await new Promise<void>((res) => {
        server.close(() => res());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
