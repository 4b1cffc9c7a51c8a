/**
 * The emulator's composition root (issue 31 item 4): every long-lived service of one
 * emulator, built once by `buildServices` in the order below (each gets what it needs as
 * an argument, never by looking another up), and stopped in reverse: each registers its
 * stop with `ctx.onStop` as it is built, and start.ts runs those hooks last-first. Modules
 * reach a service through `ctx.services` (or their one-line accessor, e.g.
 * `sessionRuntime(ctx)`); nothing is built on first use.
 */
import type { EmulatorContext } from './context.js';
import { Fleet } from './fleet/fleet.js';
import { InProcessBoxes } from './fleet/spawn.js';
import { createGenerationState, type GenerationState } from './generations/state.js';
import { createIdleMediaWorker, type IdleMediaWorker } from './idle-media/worker.js';
import { startFaults, type Faults } from './operator/faults.js';
import { OperatorLog } from './operator/log.js';
import { SessionRuntime } from './sessions/runtime.js';
import { ToolGateway } from './tools/gateway.js';
import { McpRegistry } from './tools/registry.js';

declare module './context.js' {
  interface EmulatorContext {
    /** The emulator's services, built once in order by `buildServices` (below). */
    services: EmulatorServices;
  }
}

export interface EmulatorServices {
  /** The operator log: every request and session event (`GET /_emulator/logs`). */
  log: OperatorLog;
  /** Armed faults (the `faults` option, then `POST /_emulator/faults`). */
  faults: Faults;
  /** The boxes that registered and their seats (external box credentials from the store). */
  fleet: Fleet;
  /** Sessions: seats, the queue, webhooks (ends sessions a previous run left live). */
  sessions: SessionRuntime;
  /** Registered MCP servers. */
  mcp: McpRegistry;
  /** The box-facing tool gateway (calls, budgets, webhooks). */
  tools: ToolGateway;
  /** Generations: render cells on the fleet, media and voice caches, transcriptions. */
  generations: GenerationState;
  /** Idle media builds for published versions. */
  idleMedia: IdleMediaWorker;
  /** Boxes started in this process (started by `startFleet`, stopped first). */
  boxes: InProcessBoxes;
}

/** Build every service of `ctx`, in order; `ctx.services` must not be read until this returns. */
export function buildServices(ctx: EmulatorContext): EmulatorServices {
  const log = new OperatorLog(() => ctx.clock.now());
  const faults = startFaults(ctx);
  const fleet = new Fleet();
  fleet.loadCredentials(ctx.db);
  const sessions = new SessionRuntime(ctx, fleet);
  ctx.onStop(() => sessions.stop());
  const mcp = new McpRegistry(ctx);
  const tools = new ToolGateway(ctx);
  ctx.onStop(() => tools.close());
  const generations = createGenerationState(ctx, sessions); // stops its transcriptions (onStop)
  const idleMedia = createIdleMediaWorker(ctx); // stops its build (onStop)
  const boxes = new InProcessBoxes(ctx);
  return { log, faults, fleet, sessions, mcp, tools, generations, idleMedia, boxes };
}

/** `ctx.services` before buildServices returned: any read is a wiring mistake, said as one. */
export const servicesNotBuilt: EmulatorServices = new Proxy({} as EmulatorServices, {
  get(_t, name) {
    throw new Error(`emulator service ${String(name)} read before buildServices (start.ts)`);
  },
});
