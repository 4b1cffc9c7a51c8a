import { clock, clockAdvance, health } from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { ManualClock } from '../clock.js';
import { ApiError } from '../http/api-error.js';
import { implement } from '../http/router.js';

/**
 * Operator surface (ours, not the spec's): /_emulator/*. Never mixed into /api/v1. Each
 * route is an operation of `src/contract/operations/operator.ts` (path, body schema).
 */
export function registerOperator(app: App, ctx: EmulatorContext, info: { version: string; startedAt: number }): void {
  implement(app, ctx, health, () => ({ ok: true, version: info.version, started_at: info.startedAt, in_memory: ctx.options.inMemory }));
  implement(app, ctx, clock, () => ({ now_ms: ctx.clock.now(), manual: ctx.clock instanceof ManualClock }));
  implement(app, ctx, clockAdvance, ({ body }) => {
    if (!(ctx.clock instanceof ManualClock)) {
      throw new ApiError(409, 'clock_not_manual', { message: 'start the emulator with a manual clock to drive time' });
    }
    ctx.clock.advance(body.ms);
    return { now_ms: ctx.clock.now() };
  });
}
