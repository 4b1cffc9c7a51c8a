import { health } from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { implement } from '../http/router.js';
import { registerClockRoutes } from './clock-routes.js';
import { registerStateRoutes } from './state-routes.js';
import { registerOperatorLog } from './log.js';
import { registerTriggers } from './triggers.js';
import { registerFaultRoutes } from './faults.js';

/**
 * Operator surface (ours, not the spec's): /_emulator/*. Never mixed into /api/v1. Each
 * route is an operation of `src/contract/operations/operator.ts` (path, body schema).
 */
export function registerOperator(
  app: App,
  ctx: EmulatorContext,
  info: { version: string; startedAt: number },
): void {
  implement(app, ctx, health, () => ({
    ok: true,
    version: info.version,
    started_at: info.startedAt,
    in_memory: ctx.options.inMemory,
  }));
  registerClockRoutes(app, ctx);
  registerStateRoutes(app, ctx, info.version);
  registerOperatorLog(app, ctx);
  registerTriggers(app, ctx);
  registerFaultRoutes(app, ctx);
}
