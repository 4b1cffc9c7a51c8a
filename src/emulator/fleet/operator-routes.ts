/**
 * Operator routes of the fleet, queue and webhooks (ours, under /_emulator/, never in
 * /api/v1): list boxes, issue an external box credential, drain the queue, read the
 * webhook delivery log, list sessions.
 */
import type { App, EmulatorContext } from '../context.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { issueBoxCredential } from './spawn.js';

export function registerFleetOperator(app: App, ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);

  app.get('/_emulator/boxes', (c) =>
    c.json({
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
    }),
  );

  // A box in another process (`avatar edge start --control-plane URL`) registers with these.
  app.post('/_emulator/boxes', (c) => {
    const { boxId, secret } = issueBoxCredential(ctx);
    return c.json({ box_id: boxId, secret }, 201);
  });

  // spec 3: waiting or claimable -> expired, queue.dropped reason `drained`.
  app.post('/_emulator/queue/drain', (c) => c.json({ ok: true, drained: rt.queue.drain() }));

  app.get('/_emulator/queue', (c) => c.json({ tickets: rt.queue.size, waiting: rt.queue.waiting }));

  // `avatar sessions list`: spec 4.5 has no session list; the emulator's operator has one.
  app.get('/_emulator/sessions', (c) => {
    const all = c.req.query('all') === 'true' ? 1 : 0;
    const n = Number(c.req.query('limit') ?? 50);
    const limit = Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 50;
    return c.json({ data: rt.st.recent.all({ all, limit }) });
  });

  app.get('/_emulator/webhooks/deliveries', (c) => c.json({ data: rt.webhooks.deliveries() }));
}
