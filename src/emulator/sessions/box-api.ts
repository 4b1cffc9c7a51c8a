/**
 * The internal box API (ours; not part of spec's /api/v1): boxes register, report seat
 * events (connect/close) and transcript turns. Each call carries the box's own secret as
 * `Authorization: Bearer <secret>`; a wrong or missing secret is 401.
 */
import {
  boxDeregister,
  boxMedia,
  boxPresence,
  boxRegister,
  boxScript,
  boxSeatEvents,
  boxTurns,
} from '../../contract/operations/boxes.js';
import type { Context } from 'hono';
import type { Script } from '../../contract/resources/script.js';
import { bearer } from '../auth/authenticate.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement } from '../http/router.js';
import { sessionRuntime } from './runtime.js';
import { getSessionRow } from './store.js';
import { endOnBox } from '../fleet/box-calls.js';
import { sessionMedia } from './session-media.js';
import { registerGatewayRoutes, toolGateway } from '../tools/gateway-routes.js';
import { faultsOf } from '../operator/faults.js';
import { registerStreamFaults } from './stream-faults.js';

export function registerBoxApi(app: App, ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);
  // Ends the control plane decides (release, reaper, cap) close the session's sockets on its box.
  rt.endListeners.push((sid, boxId, reason) => {
    const box = rt.fleet.get(boxId);
    const ended =
      box && reason !== 'closed' && reason !== 'box_stopping'
        ? endOnBox(box, sid, reason)
        : undefined;
    // spec 6.2: the hook hears session_end when the seat is released.
    toolGateway(ctx).sessionEnded(sid, reason);
    return ended;
  });
  const boxOf = (c: Context): string => {
    const id = c.req.param('boxId')!;
    if (!rt.fleet.checkCredential(id, bearer(c)))
      throw new ApiError(401, 'unauthorized', { message: 'unknown box or wrong box secret' });
    return id;
  };
  /** A box route: the box's secret first, then the contract operation's validation. */
  const boxRoute: typeof implement = (a, x, op, handler) => implement(a, x, op, handler, boxOf);

  boxRoute(app, ctx, boxRegister, ({ params, body: reg }) => {
    const id = params.boxId;
    const box = rt.fleet.register(id, reg, ctx.clock.now());
    rt.boxRegistered(box);
    // The stream-fault events armed now (later changes come as POST /_box/faults).
    const faults = faultsOf(ctx);
    return { ok: true, box_id: id, fault_events: faults.armed(), fault_version: faults.version };
  });

  boxRoute(app, ctx, boxPresence, ({ params }) => ({
    registered: rt.fleet.get(params.boxId)?.live === true,
  }));

  boxRoute(app, ctx, boxDeregister, ({ params }) => {
    rt.boxGone(params.boxId);
    return { ok: true };
  });

  // spec 3: "the edge frees the seat when the client sockets close"; connect makes it active.
  boxRoute(app, ctx, boxSeatEvents, ({ params, body: ev }) => {
    const id = params.boxId;
    const row = getSessionRow(rt.st, ev.session_id);
    if (!row || row.box_id !== id)
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    if (ev.event === 'connect') {
      if (rt.tokenExpired(ev.session_id))
        throw new ApiError(401, 'token_expired', {
          message: 'the session token has expired; mint a new session',
        });
      if (!rt.connected(ev.session_id))
        throw new ApiError(409, 'conflict', { message: 'session is not live' });
      if (row.started_at === null) void toolGateway(ctx).sessionStarted(ev.session_id);
    } else {
      void rt.endSession(ev.session_id, ev.reason ?? 'closed');
    }
    return { ok: true };
  });

  boxRoute(app, ctx, boxTurns, ({ params, body: turn }) => {
    const id = params.boxId;
    const row = getSessionRow(rt.st, params.sessionId);
    if (!row || row.box_id !== id || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    rt.st.addTurn.run(row.id, turn.seq, turn.user_text, turn.reply_text, unixSeconds(ctx.clock));
    toolGateway(ctx).turnCommitted(row.id, turn);
    return { ok: true };
  });

  // The conversation script the mint chose and froze (docs/testing.md "Conversation scripts").
  boxRoute(app, ctx, boxScript, ({ params }) => {
    const row = getSessionRow(rt.st, params.sessionId);
    if (!row || row.box_id !== params.boxId || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const stored = row.snapshot_json
      ? (JSON.parse(row.snapshot_json) as { script?: Script | null })
      : {};
    return { script: stored.script ?? null };
  });

  registerGatewayRoutes(app, ctx, boxRoute);
  registerStreamFaults(app, ctx, boxRoute);

  // spec 4.7: the token tells the box where to fetch a custom avatar's media; this is where.
  boxRoute(app, ctx, boxMedia, ({ params, c }) => {
    const id = params.boxId;
    const row = getSessionRow(rt.st, params.sessionId);
    if (!row || row.box_id !== id || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const kind = params.kind;
    if (kind !== 'face' && kind !== 'idle' && kind !== 'voice')
      throw new ApiError(404, 'not_found', { message: 'media kinds are face, idle and voice' });
    const bytes = sessionMedia(ctx, row, kind);
    if (!bytes)
      throw new ApiError(404, 'not_found', {
        message: `this session's avatar has no ${kind} media`,
      });
    return c.body(new Uint8Array(bytes), 200, { 'content-type': 'application/octet-stream' });
  });
}
