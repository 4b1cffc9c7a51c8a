/**
 * Operator routes of the fleet, queue and webhooks (ours, under /_emulator/, never in
 * /api/v1): list boxes, issue an external box credential, drain the queue, read the
 * webhook delivery log, list sessions.
 */
import {
  boxCredential,
  boxes,
  queue,
  queueDrain,
  sessionsList,
  webhookDeliveries,
} from '../../contract/operations/operator.js';
import type { OutputOf } from '../../contract/operation.js';
import type { App, EmulatorContext } from '../context.js';
import { implement, reply } from '../http/router.js';
import { sessionRuntime } from './runtime.js';
import { issueBoxCredential } from '../fleet/spawn.js';

export function registerFleetOperator(app: App, ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);

  implement(app, ctx, boxes, () => ({
    data: rt.fleet.list().map((b) => ({
      id: b.id,
      base_url: b.baseUrl,
      live: b.live,
      seats: b.seats,
      held: b.held.size,
      reserved: b.reserved,
      free: rt.fleet.free(b),
      protocols: b.protocols,
      custom_avatars: b.customAvatars,
      verified: b.verified,
      max_cap_seconds: b.maxCapSeconds,
    })),
  }));

  // A box in another process (`avatar edge start --control-plane URL`) registers with these.
  implement(app, ctx, boxCredential, () => {
    const { boxId, secret } = issueBoxCredential(ctx, true);
    return reply(201, { box_id: boxId, secret });
  });

  // spec 3: waiting or claimable -> expired, queue.dropped reason `drained`.
  implement(app, ctx, queueDrain, () => ({ ok: true, drained: rt.queue.drain() }));

  implement(app, ctx, queue, () => ({ tickets: rt.queue.size, waiting: rt.queue.waiting }));

  // `avatar sessions list`: spec 4.5 has no session list; the emulator's operator has one.
  implement(app, ctx, sessionsList, ({ query }) => ({
    // The SELECT's columns are the schema's fields (SQLite rows come back untyped).
    data: rt.st.recent.all({
      all: query.all === 'true' ? 1 : 0,
      limit: query.limit ?? 50,
    }) as OutputOf<typeof sessionsList>['data'],
  }));

  implement(app, ctx, webhookDeliveries, () => ({ data: rt.webhooks.deliveries() }));
}
