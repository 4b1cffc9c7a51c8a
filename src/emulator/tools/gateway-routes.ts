/**
 * The gateway's half of the internal box API (ours, not /api/v1): the box reads a session's
 * resolved tools, posts tool calls, and reports the built-in calls it ran. Answers are 200
 * with the gateway's JSON text (spec 7: wire-level tool errors in the body).
 */
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import type { implement } from '../http/router.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { getSessionRow } from '../sessions/store.js';
import { readSessionTools, ToolGateway } from './gateway.js';
import { boxToolCalls, boxToolCallsReport, boxTools } from '../../contract/operations/boxes.js';

/** The emulator's tool gateway (built once by src/emulator/services.ts). */
export function toolGateway(ctx: EmulatorContext): ToolGateway {
  return ctx.services.tools;
}

/** The box API's `implement`: the box's secret checked before the operation's validation. */
export function registerGatewayRoutes(
  app: App,
  ctx: EmulatorContext,
  boxRoute: typeof implement,
): void {
  const rt = sessionRuntime(ctx);
  const gw = toolGateway(ctx);
  const LEDGER_SWEEP_MS = 3600_000;
  let timer = ctx.clock.setTimeout(function sweep() {
    gw.sweep();
    timer = ctx.clock.setTimeout(sweep, LEDGER_SWEEP_MS);
  }, LEDGER_SWEEP_MS);
  ctx.onStop(() => timer.cancel());

  const sessionOf = (params: { boxId: string; sessionId: string }) => {
    const row = getSessionRow(rt.st, params.sessionId);
    if (!row || row.box_id !== params.boxId || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const s = readSessionTools(ctx, row.id);
    if (!s) throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    return s;
  };

  boxRoute(app, ctx, boxTools, ({ params }) => {
    const s = sessionOf(params);
    return {
      tools: s.definitions.map((d) => ({ ...d })),
      max_calls: s.maxCalls,
      history: s.history,
      ...gw.state(s.sessionId, s.maxCalls),
    };
  });

  boxRoute(app, ctx, boxToolCalls, async ({ params, body: input, c }) => {
    const s = sessionOf(params);
    const text = await gw.call(s, input);
    return c.body(text, 200, { 'content-type': 'application/json' });
  });

  boxRoute(app, ctx, boxToolCallsReport, ({ params, body: input, c }) => {
    const s = sessionOf(params);
    return c.body(gw.report(s, input), 200, { 'content-type': 'application/json' });
  });
}
