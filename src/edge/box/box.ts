/**
 * One GPU edge box: its own HTTP + WebSocket server (a Hono app on its own port, `ws` on
 * its upgrades), registered with the control plane over the internal box API. Sessions
 * open on the first authenticated connect (spec 3: pending -> active) and end on socket
 * loss, release, the reaper or the cap; turns are reported as they commit.
 */
import {
  ArmBody,
  boxDeregister,
  boxMedia,
  boxRegister,
  boxSeatEvents,
  boxTurns,
  edgeHealth,
  edgeImage,
  edgeFaults,
  edgeSessionEnd,
  edgeSessionLog,
  type StreamFaultEvent,
} from '../../contract/operations/boxes.js';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { systemClock, type Clock } from '../../contract/clock.js';
import type { EdgeSession } from '../session/edge-session.js';
import type { EndReason, LoggedTurn } from '../session/live-session.js';
import type { EdgeParts } from '../session/parts.js';
import { BoxSessions } from './box-sessions.js';
import { registerCaptures } from './captures-route.js';
import { registerChat } from './chat-route.js';
import { boxErrors, boxFamily } from './box-family.js';
import { ApiError } from '../../server/api-error.js';
import { bind } from '../../server/binder.js';
import { sameSecret } from '../../server/safe-equal.js';
import { ControlPlaneLink } from './control-plane.js';
import { sessionTokenVerifier, type SessionClaims, TokenRefused } from './session-token.js';
import { upgradeHandler } from './upgrade.js';
import { HostPolicy } from '../../contract/hosts.js';
import { bindPolicy, hostGuardedServer, refuseForeignUpgrade } from './host-guard.js';
import { boxToolLink } from '../tools/box-link.js';
import { ImageShelf } from '../tools/builtin-tools.js';
import { BoxFaults } from './stream-faults.js';
import { boxScriptLink } from './script-link.js';

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
  /** Host names served besides loopback and the bound address (`--allowed-hosts`; docs/security.md). */
  allowedHosts?: string[];
  /** Brain, recognizer, VAD, voice and media (session/parts.ts). */
  parts: EdgeParts;
  /** Caps, token expiry and status frames; defaults to the real clock. */
  clock?: Clock;
  /** Where `recording: true` sessions are captured (`<dir>/<session_id>/`); null records nothing. */
  captureRoot?: string | null;
  /** Session-tagged log lines (silenced per session by `observability: false`). */
  log?: (line: string) => void;
  /** How long an ended session's log stays for `source: live` (default 15 min). */
  keepEndedMs?: number;
  /**
   * Ask the control plane every few seconds whether it still has this box, register again
   * after it restarts and log loudly while it is away (default true; control-plane.ts).
   */
  watchControlPlane?: boolean;
}

export interface RunningBox {
  id: string;
  /** `http://host:port` of this box (the mint's `connect_url`). */
  baseUrl: string;
  app: Hono;
  /** Verify a session token minted for this box (spec 5.4). */
  verify(token: string): Promise<SessionClaims>;
  /** Sessions connected on this box. */
  readonly connected: ReadonlySet<string>;
  session(id: string): EdgeSession | undefined;
  /** Open the session of this token as a socket connect would (operator and test use; with no socket it ends idle after 60 s); returns the claims. */
  connect(token: string): Promise<SessionClaims>;
  /** End a session as if its client sockets closed (spec 3: the seat frees). */
  disconnect(sessionId: string): Promise<void>;
  /** Report a committed turn to the transcript store, as the turn loop does. */
  reportTurn(
    sessionId: string,
    turn: { seq: number; user_text: string; reply_text: string },
  ): Promise<void>;
  /** The stream-fault events this box asks the control plane at now. */
  readonly armedFaults: StreamFaultEvent[];
  stop(): Promise<void>;
}

export async function startBox(opts: BoxOptions): Promise<RunningBox> {
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? (() => undefined);
  const cp = new ControlPlaneLink(
    opts.controlPlaneUrl.replace(/\/+$/, ''),
    opts.boxId,
    opts.secret,
  );
  const verify = sessionTokenVerifier(cp.baseUrl, opts.boxId, clock);
  // The control plane presents this when it asks for a session's log (transcript `source: live`).
  const callbackSecret = randomBytes(24).toString('hex');
  // A crashed box (a crash_box fault) says nothing more: it is gone, as a process that died.
  let crashed = false;
  // A failed report names its session: silenced with the session's logs (spec 4.5 observability: false).
  const report = (id: string, what: string, p: Promise<unknown>) =>
    p.catch(
      (e: Error) =>
        sessions.get(id)?.live.snapshot.sessionLogs !== false &&
        log(`control plane ${what} report for session ${id} failed: ${e.message}`),
    );

  const shelf = new ImageShelf(clock);
  const faults = new BoxFaults(cp, () => crash());
  const sessions = new BoxSessions({
    faults: (id) => faults.forSession(id),
    toolLink: boxToolLink(cp, shelf),
    script: boxScriptLink(cp, log),
    clock,
    parts: opts.parts,
    captureRoot: opts.captureRoot ?? null,
    keepEndedMs: opts.keepEndedMs ?? 15 * 60_000,
    log,
    fetchMedia: (id, kind) => cp.getBytes(boxMedia, { sessionId: id, kind }),
    async connect(id) {
      const r = await cp.post(boxSeatEvents, {}, { session_id: id, event: 'connect' });
      // The control plane can expire a token before its time (the emulator's trigger).
      if (r.status === 401 && (r.body as { error?: unknown } | null)?.error === 'token_expired')
        throw new TokenRefused(
          'token_expired',
          'the session token has expired; mint a new session',
        );
      return r.status >= 200 && r.status < 300;
    },
    ended(id, reason: EndReason) {
      // A script's end frees the seat as a closed socket does (the seat events have no `script` reason).
      if (reason !== 'released' && !crashed)
        void report(
          id,
          'close',
          cp.must(
            boxSeatEvents,
            {},
            { session_id: id, event: 'close', reason: reason === 'script' ? 'closed' : reason },
          ),
        );
    },
    store(id, t: LoggedTurn) {
      if (crashed) return;
      void report(
        id,
        'turn',
        cp.must(
          boxTurns,
          { sessionId: id },
          { seq: t.seq, user_text: t.user_text, reply_text: t.reply_text },
        ),
      );
    },
  });
  // A typed turn is the user speaking: it replaces a greeting still on hold and cuts a reply on air.
  const chat = (s: EdgeSession, text: string) => s.loop.typedTurn(text);

  const app = new Hono();
  const open = boxFamily(() => null);
  bind(app, open, edgeHealth, () => ({
    ok: true,
    box_id: opts.boxId,
    seats: opts.seats,
    protocols: opts.protocols,
    connected: sessions.live().length,
  }));
  registerChat(app, verify, sessions, chat);
  // Internal (control plane only): the callback secret it was given at registration.
  const fromControlPlane = boxFamily((c) => {
    const given = c.req.header('authorization')?.replace(/^Bearer\s+/i, '') ?? '';
    if (!sameSecret(given, callbackSecret))
      throw new ApiError(401, 'unauthorized', { message: 'control plane only' });
  });
  // A session's own log, and the end of a session the control plane decided.
  bind(app, fromControlPlane, edgeSessionLog, ({ params }) => {
    const s = sessions.get(params.id);
    if (!s) throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    return {
      session_id: s.live.id,
      ended: s.live.ended,
      turns: s.live.log.map(({ seq, user_text, reply_text }) => ({ seq, user_text, reply_text })),
    };
  });
  bind(app, fromControlPlane, edgeSessionEnd, ({ params, query }) => {
    sessions.get(params.id)?.live.end(query.reason === 'cap' ? 'cap' : 'released');
    return { ok: true };
  });
  // The stream-fault events armed now (docs/testing.md "Faults inside live streams").
  bind(app, fromControlPlane, edgeFaults, ({ body }) => {
    faults.arm(body.events, body.version);
    return { ok: true };
  });
  registerCaptures(app, opts.captureRoot ?? null, fromControlPlane);
  // Built-in tool pictures (svc.image): public by their unguessable id, gone after an hour (spec 8).
  bind(
    app,
    boxFamily(() => null),
    edgeImage,
    ({ params, c }) => {
      const m = /^([0-9a-f]{32})\.png$/.exec(params.file);
      const png = m ? shelf.get(m[1]!) : null;
      if (!png)
        throw new ApiError(404, 'not_found', {
          message: 'no such picture, or it expired (built-in image URLs last one hour)',
        });
      return c.body(new Uint8Array(png), 200, {
        'content-type': 'image/png',
        'cache-control': 'private, max-age=3600',
      });
    },
  );
  app.onError(boxErrors(log));
  app.notFound((c) =>
    c.json(
      { error: 'not_found', message: `no route ${c.req.method} ${c.req.path} on this box` },
      404,
    ),
  );

  // Every request and upgrade passes the Host check first (DNS rebinding, docs/security.md).
  const hosts = new HostPolicy(opts.allowedHosts ?? []);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const hostname = opts.host ?? '127.0.0.1';
    const s = serve(
      {
        fetch: app.fetch,
        port: opts.port ?? 0,
        hostname,
        createServer: hostGuardedServer(hosts) as never,
      },
      () => resolve(s),
    );
    s.on('error', reject);
  });
  bindPolicy(hosts, server as Server, opts.host);
  const upgrades = upgradeHandler({ clock, verify, sessions, chat });
  (server as Server).on('upgrade', (req, socket, head) => {
    if (!refuseForeignUpgrade(hosts, req, socket)) upgrades.onUpgrade(req, socket, head);
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const baseUrl = `http://${host}:${addr.port}`;
  shelf.baseUrl = baseUrl;

  const register = async () => {
    const registered = await cp.must(
      boxRegister,
      {},
      {
        base_url: baseUrl,
        seats: opts.seats,
        protocols: opts.protocols,
        custom_avatars: opts.customAvatars,
        verified: opts.verified,
        max_cap_seconds: opts.maxCapSeconds ?? null,
        callback_secret: callbackSecret,
      },
    );
    const answer = registered as { fault_events?: unknown; fault_version?: unknown } | undefined;
    const armed = ArmBody.safeParse({
      events: answer?.fault_events ?? [],
      version: answer?.fault_version ?? undefined,
    });
    if (armed.success) faults.arm(armed.data.events, armed.data.version);
  };
  try {
    await register();
  } catch (err) {
    // An unregistered box must not keep its port (or the process) alive.
    upgrades.wss.close();
    await new Promise<void>((res) => server.close(() => res()));
    await cp.close().catch(() => undefined);
    throw err;
  }

  let stopped = false;
  // A control plane that restarts finds this box again (control-plane.ts).
  const watch =
    opts.watchControlPlane === false ? null : cp.keepRegistered({ register, clock, log });
  /**
   * A crash (a crash_box fault): every socket drops without a close frame (clients see
   * 1006), the port stops answering, and the box reports nothing: no closes, no turns, no
   * deregistration. The control plane finds it gone by its health probe.
   */
  function crash(): void {
    if (crashed || stopped) return;
    crashed = true;
    watch?.stop();
    log(`box ${opts.boxId} crashed (a crash_box fault)`);
    upgrades.stopHeartbeat();
    for (const ws of upgrades.wss.clients) ws.terminate();
    sessions.endAll('box_stopping');
    server.close();
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  }
  return {
    id: opts.boxId,
    baseUrl,
    app,
    verify: (t) => verify(t),
    get armedFaults() {
      return faults.events();
    },
    get connected() {
      return new Set(sessions.live().map((s) => s.live.id));
    },
    session: (id) => sessions.get(id),
    async connect(token) {
      const claims = await verify(token);
      await sessions.open(claims);
      return claims;
    },
    async disconnect(id) {
      sessions.get(id)?.live.end('closed');
      // the close report is asynchronous; wait for the control plane to have it
      await cp.post(boxSeatEvents, {}, { session_id: id, event: 'close', reason: 'closed' });
    },
    async reportTurn(id, turn) {
      await cp.must(boxTurns, { sessionId: id }, turn);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      watch?.stop();
      sessions.endAll('box_stopping');
      if (!crashed) await cp.post(boxDeregister, {}, {}).catch(() => undefined);
      await cp.close();
      upgrades.stopHeartbeat();
      for (const ws of upgrades.wss.clients) ws.terminate();
      upgrades.wss.close();
      await new Promise<void>((res) => {
        server.close(() => res());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}
