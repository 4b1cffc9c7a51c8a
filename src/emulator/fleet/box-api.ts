/**
 * The internal box API (ours; not part of spec's /api/v1): boxes register, report seat
 * events (connect/close) and transcript turns. Each call carries the box's own secret as
 * `Authorization: Bearer <secret>`; a wrong or missing secret is 401.
 */
import { toRouterPath } from '../../contract/operation.js';
import {
  boxDeregister,
  boxMedia,
  boxRegister,
  boxSeatEvents,
  boxTurns,
} from '../../contract/operations/boxes.js';
import type { Context } from 'hono';
import { z } from 'zod';
import { bearer } from '../auth/authenticate.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../http/api-error.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { getSessionRow } from '../sessions/store.js';
import { endOnBox } from './box-calls.js';
import { sessionMedia } from './session-media.js';
import { registerGatewayRoutes, toolGateway } from '../tools/gateway-routes.js';
import { faultsOf } from '../operator/faults.js';
import { registerStreamFaults } from './stream-faults.js';

const Registration = z.object({
  base_url: z.url({ protocol: /^https?$/ }),
  seats: z.number().int().min(0).max(10_000),
  protocols: z.array(z.number().int().min(1)).min(1),
  custom_avatars: z.boolean(),
  verified: z.boolean(),
  max_cap_seconds: z.number().int().min(1).nullable().optional(),
  callback_secret: z.string().min(16).max(200).nullable().optional(),
});
const SeatEvent = z.object({
  session_id: z.string().min(1),
  event: z.enum(['connect', 'close']),
  /** Why the box ended it: every client socket closed, the cap, the box stopping, or idle (a /chat-only session). */
  reason: z.enum(['closed', 'cap', 'box_stopping', 'idle']).optional(),
});
const Turn = z.object({
  seq: z.number().int().min(0),
  user_text: z.string(),
  reply_text: z.string(),
});

async function parse<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new ApiError(400, 'invalid_json', { message: 'request body is not valid JSON' });
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new ApiError(400, 'invalid_request', {
      detail: `${i?.path.join('.') || '(body)'}: ${i?.message}`,
    });
  }
  return r.data;
}

export function registerBoxApi(app: App, ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);
  // Ends the control plane decides (release, reaper, cap) close the session's sockets on its box.
  rt.endListeners.push((sid, boxId, reason) => {
    const box = rt.fleet.get(boxId);
    if (box && reason !== 'closed' && reason !== 'box_stopping') endOnBox(box, sid, reason);
    // spec 6.2: the hook hears session_end when the seat is released.
    toolGateway(ctx).sessionEnded(sid, reason);
  });
  const boxOf = (c: Context): string => {
    const id = c.req.param('boxId')!;
    if (!rt.fleet.checkCredential(id, bearer(c)))
      throw new ApiError(401, 'unauthorized', { message: 'unknown box or wrong box secret' });
    return id;
  };

  app.post(toRouterPath(boxRegister.path), async (c) => {
    const id = boxOf(c);
    const reg = await parse(c, Registration);
    const box = rt.fleet.register(id, reg, ctx.clock.now());
    rt.boxRegistered(box);
    // The stream-fault events armed now (later changes come as POST /_box/faults).
    return c.json({ ok: true, box_id: id, fault_events: faultsOf(ctx).armed() });
  });

  app.post(toRouterPath(boxDeregister.path), (c) => {
    const id = boxOf(c);
    rt.boxGone(id);
    return c.json({ ok: true });
  });

  // spec 3: "the edge frees the seat when the client sockets close"; connect makes it active.
  app.post(toRouterPath(boxSeatEvents.path), async (c) => {
    const id = boxOf(c);
    const ev = await parse(c, SeatEvent);
    const row = getSessionRow(rt.st, ev.session_id);
    if (!row || row.box_id !== id)
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    if (ev.event === 'connect') {
      if (!rt.connected(ev.session_id))
        throw new ApiError(409, 'conflict', { message: 'session is not live' });
      if (row.started_at === null) void toolGateway(ctx).sessionStarted(ev.session_id);
    } else {
      rt.endSession(ev.session_id, ev.reason ?? 'closed');
    }
    return c.json({ ok: true });
  });

  app.post(toRouterPath(boxTurns.path), async (c) => {
    const id = boxOf(c);
    const turn = await parse(c, Turn);
    const row = getSessionRow(rt.st, c.req.param('sessionId') ?? '');
    if (!row || row.box_id !== id || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    rt.st.addTurn.run(row.id, turn.seq, turn.user_text, turn.reply_text, unixSeconds(ctx.clock));
    toolGateway(ctx).turnCommitted(row.id, turn);
    return c.json({ ok: true });
  });

  registerGatewayRoutes(app, ctx, boxOf, parse);
  registerStreamFaults(app, ctx, boxOf, parse);

  // spec 4.7: the token tells the box where to fetch a custom avatar's media; this is where.
  app.get(toRouterPath(boxMedia.path), (c) => {
    const id = boxOf(c);
    const row = getSessionRow(rt.st, c.req.param('sessionId') ?? '');
    if (!row || row.box_id !== id || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const kind = c.req.param('kind');
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
