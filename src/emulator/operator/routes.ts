import type { App, EmulatorContext } from '../context.js';
import { ManualClock } from '../clock.js';

/**
 * Operator surface (ours, not the spec's): /_emulator/*. Never mixed into /api/v1.
 * Later issues add boxes, queue drain, fault injection and the webhook log here.
 */
export function registerOperator(app: App, ctx: EmulatorContext, info: { version: string; startedAt: number }): void {
  app.get('/_emulator/health', (c) =>
    c.json({ ok: true, version: info.version, started_at: info.startedAt, in_memory: ctx.options.inMemory }),
  );
  app.get('/_emulator/clock', (c) => c.json({ now_ms: ctx.clock.now(), manual: ctx.clock instanceof ManualClock }));
  app.post('/_emulator/clock/advance', async (c) => {
    if (!(ctx.clock instanceof ManualClock)) {
      return c.json({ error: 'clock_not_manual', message: 'start the emulator with a manual clock to drive time' }, 409);
    }
    let ms = NaN;
    try {
      ms = Number(((await c.req.json()) as { ms?: unknown }).ms);
    } catch {
      return c.json({ error: 'invalid_json', message: 'body must be {"ms": number}' }, 400);
    }
    if (!Number.isFinite(ms) || ms < 0) return c.json({ error: 'invalid_request', detail: 'ms: must be a non-negative number' }, 400);
    ctx.clock.advance(ms);
    return c.json({ now_ms: ctx.clock.now() });
  });
}
