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

const History = z.array(z.object({ role: z.string().max(32), content: z.string().max(16_384) })).max(40);
const Call = z.object({
  call_id: z.string().min(1).max(100),
  idem: z.string().min(1).max(200),
  tool: z.string().min(1).max(64),
  args: z.record(z.string(), z.unknown()),
  history: History,
});
const Report = Call.extend({ ok: z.boolean(), ms: z.number().int().min(0), result: z.unknown() });

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

export function registerGatewayRoutes(app: App, ctx: EmulatorContext, boxOf: (c: Context) => string, parse: Parse): void {
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
    if (!row || row.box_id !== id || row.status === 'deleted') throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    const s = readSessionTools(ctx, row.id);
    if (!s) throw new ApiError(404, 'not_found', { message: 'no such session on this box' });
    return s;
  };

  app.get('/_internal/boxes/:boxId/sessions/:sessionId/tools', (c) => {
    const s = sessionOf(c);
    return c.json({ tools: s.definitions, max_calls: s.maxCalls, history: s.history, ...gw.state(s.sessionId, s.maxCalls) });
  });

  app.post('/_internal/boxes/:boxId/sessions/:sessionId/tool-calls', async (c) => {
    const s = sessionOf(c);
    const input = await parse(c, Call);
    const text = await gw.call(s, input);
    return c.body(text, 200, { 'content-type': 'application/json' });
  });

  app.post('/_internal/boxes/:boxId/sessions/:sessionId/tool-calls/report', async (c) => {
    const s = sessionOf(c);
    const input = await parse(c, Report);
    return c.body(gw.report(s, input), 200, { 'content-type': 'application/json' });
  });
}
