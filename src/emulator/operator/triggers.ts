import { ApiError } from '../../server/api-error.js';
import { implement, zodDetail } from '../http/router.js';
import { trigger } from '../../contract/operations/operator.js';
import { z } from 'zod';
import { WebhookEvents } from '../../contract/resources/webhook.js';
import type { App, EmulatorContext } from '../context.js';
import { getSetting } from '../db/database.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { operatorLog } from './log.js';
import { generationState } from '../generations/state.js';

/**
 * Triggers (issue 18 item 5; docs/testing.md "Triggers"): make the emulator do what would
 * otherwise take a real situation. `POST /_emulator/triggers/{name}` with a JSON body:
 * - `fill-seats`: every free seat is taken by a placeholder, so the next mint queues;
 * - `free-seats`: the placeholders leave; waiting tickets become claimable (`queue.claimable`);
 * - `drain-queue`: every waiting or claimable ticket is dropped (`queue.dropped`, `drained`);
 * - `webhook` `{ event, workspace_id?, data? }`: send a workspace webhook of any event the
 *   emulator emits, to the workspace's subscribed endpoints;
 * - `end-session` `{ session_id, reason? }`: end a live session from the box (its sockets
 *   close; default reason `box_gone`);
 * - `expire-token` `{ session_id }`: a pending session's token is expired now: its connect
 *   (any socket, or /chat) is refused 401 `token_expired`;
 * - `drop-ticket` `{ ticket?, reason? }`: drop one ticket (the one named, else the oldest) as
 *   `lapsed`, `idle` or `drained` (default): expired, `queue.dropped` with that reason;
 * - `fail-speak` `{ stage?, count? }`: the next `count` (1) speak or design renders fail at
 *   `stage` (`tts` or `video`): 502 `render_failed` (the generations' fault switch).
 */
const PLACEHOLDER = 'trigger-seat-';

const WebhookBody = z
  .object({
    event: z.enum(WebhookEvents),
    workspace_id: z.string().min(1).optional(),
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
const EndBody = z
  .object({
    session_id: z.string().min(1),
    reason: z
      .string()
      .regex(/^[a-z_]{1,40}$/)
      .default('box_gone'),
  })
  .strict();

const ExpireBody = z.object({ session_id: z.string().min(1) }).strict();
const DropBody = z
  .object({
    ticket: z.string().min(1).optional(),
    reason: z.enum(['lapsed', 'idle', 'drained']).default('drained'),
  })
  .strict();
const FailSpeakBody = z
  .object({
    stage: z.enum(['tts', 'video']).default('tts'),
    count: z.number().int().min(1).max(1000).default(1),
  })
  .strict();

export function registerTriggers(app: App, ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);
  const log = operatorLog(ctx);
  let placeholders = 0;
  /** A trigger's own body, checked as implement() checks an operation's. */
  const parse = <T extends z.ZodType>(schema: T, raw: unknown): z.output<T> => {
    const r = schema.safeParse(raw);
    if (!r.success)
      throw new ApiError(400, 'invalid_request', {
        message: 'invalid request body',
        detail: zodDetail(r.error),
      });
    return r.data;
  };

  implement(app, ctx, trigger, async ({ params, body }) => {
    const name = params.name;
    const raw = body ?? {};
    switch (name) {
      case 'fill-seats': {
        let held = 0;
        for (const box of rt.fleet.liveBoxes()) {
          while (rt.fleet.free(box) > 0) {
            rt.fleet.hold(box, `${PLACEHOLDER}${++placeholders}`);
            held++;
          }
        }
        log.add('event', { event: 'trigger.fill-seats', data: { held } });
        return { trigger: name, held };
      }
      case 'free-seats': {
        let freed = 0;
        for (const box of rt.fleet.list()) {
          for (const id of [...box.held]) {
            if (id.startsWith(PLACEHOLDER) && rt.fleet.releaseHeld(box.id, id)) freed++;
          }
          if (box.live) rt.offerSeats(box, null);
        }
        log.add('event', { event: 'trigger.free-seats', data: { freed } });
        return { trigger: name, freed };
      }
      case 'drain-queue':
        return { trigger: name, dropped: rt.queue.drain() };
      case 'webhook': {
        const r = { data: parse(WebhookBody, raw) };
        const boot = JSON.parse(getSetting(ctx.db, 'bootstrap') ?? '{}') as {
          workspaceId?: string;
        };
        const ws = r.data.workspace_id ?? boot.workspaceId ?? null;
        rt.webhooks.emit(r.data.event, ws, r.data.data, null);
        return { trigger: name, event: r.data.event, workspace_id: ws };
      }
      case 'end-session': {
        const r = { data: parse(EndBody, raw) };
        if (!rt.isLiveSeat(r.data.session_id)) {
          throw new ApiError(404, 'not_found', {
            message: `no live session ${r.data.session_id} (pending or active)`,
          });
        }
        void rt.endSession(r.data.session_id, r.data.reason);
        return { trigger: name, session_id: r.data.session_id, reason: r.data.reason };
      }
      case 'expire-token': {
        const r = { data: parse(ExpireBody, raw) };
        const id = r.data.session_id;
        const done = rt.expireToken(id);
        if (done === 'unknown')
          throw new ApiError(404, 'not_found', {
            message: `no live session ${id} (pending or active)`,
          });
        if (done === 'connected')
          throw new ApiError(409, 'conflict', {
            message: `session ${id} is already connected: its token's expiry no longer matters (expires_at is a connect deadline)`,
          });
        log.add('event', { event: 'trigger.expire-token', session: id, data: {} });
        return { trigger: name, session_id: id };
      }
      case 'drop-ticket': {
        const r = { data: parse(DropBody, raw) };
        const t = rt.queue.drop(r.data.ticket ?? null, r.data.reason);
        if (!t)
          throw new ApiError(404, 'not_found', {
            message: r.data.ticket
              ? `no waiting or claimable ticket ${r.data.ticket}`
              : 'the queue is empty: no ticket to drop',
          });
        return { trigger: name, ticket: t.id, reason: r.data.reason };
      }
      case 'fail-speak': {
        const r = { data: parse(FailSpeakBody, raw) };
        generationState(ctx).fault = { stage: r.data.stage, remaining: r.data.count };
        log.add('event', { event: 'trigger.fail-speak', data: r.data });
        return { trigger: name, stage: r.data.stage, count: r.data.count };
      }
      default:
        // The contract's TriggerParams lists every trigger: the switch is exhaustive.
        return name satisfies never;
    }
  });
}
