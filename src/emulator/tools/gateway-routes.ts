/**
 * The gateway's half of the internal box API (ours, not /api/v1): the box reads a session's
 * resolved tools, posts tool calls, and reports the built-in calls it ran. Answers are 200
 * with the gateway's JSON text (spec 7: wire-level tool errors in the body).
 */
import type { Context } from 'hono';
import { z } from 'zod';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../http/api-error.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { getSessionRow } from '../sessions/store.js';
import { readSessionTools, ToolGateway } from './gateway.js';
import { toRouterPath } from '../../contract/operation.js';
import { boxToolCalls, boxToolCallsReport, boxTools } from '../../contract/operations/boxes.js';
import {
  ToolCallBody as Call,
  ToolCallReportBody as Report,
} from '../../contract/resources/tools.js';

const gateways = new WeakMap<EmulatorContext, ToolGateway>();
export function toolGateway(ctx: EmulatorContext): ToolGateway {
  let g = gateways.get(ctx);
  if (!g) {
    const made = new ToolGateway(ctx);
    gateways.set(ctx, (g = made));
    ctx.onStop(() => made.close());
  }
  return g;
}

type Parse = <T extends z.ZodType>(c: Context, schema: T) => Promise<z.output<T>>;

export function registerGatewayRoutes(
  app: App,
  ctx: EmulatorContext,
  boxOf: (c: Context) => string,
  parse: Parse,
): void {
  const rt = sessionRuntime(ctx);
  const gw = toolGateway(ctx);
  const LEDGER_SWEEP_MS = 3600_000;
  let timer = ctx.clock.setTimeout(function sweep() {
    gw.sweep();
    timer = ctx.clock.setTimeout(sweep, LEDGER_SWEEP_MS);
  }, LEDGER_SWEEP_MS);
  ctx.onStop(() => timer.cancel());

  const sessionOf = (c: Context) => {
    const id = boxOf(c);
    const row = getSessionRow(rt.st, c.req.param('sessionId')!);
    if (!row || row.box_id !== id || row.status === 'deleted')
      throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const s = readSessionTools(ctx, row.id);
    if (!s) throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    return s;
  };

  app.get(toRouterPath(boxTools.path), (c) => {
    const s = sessionOf(c);
    return c.json({
      tools: s.definitions,
      max_calls: s.maxCalls,
      history: s.history,
      ...gw.state(s.sessionId, s.maxCalls),
    });
  });

  app.post(toRouterPath(boxToolCalls.path), async (c) => {
    const s = sessionOf(c);
    const input = await parse(c, Call);
    const text = await gw.call(s, input);
    return c.body(text, 200, { 'content-type': 'application/json' });
  });

  app.post(toRouterPath(boxToolCallsReport.path), async (c) => {
    const s = sessionOf(c);
    const input = await parse(c, Report);
    return c.body(gw.report(s, input), 200, { 'content-type': 'application/json' });
  });
}
