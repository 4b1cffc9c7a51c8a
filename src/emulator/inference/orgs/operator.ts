import type { App } from '../../context.js';
import { defaultPlanRates } from '../rate-limit/limiter.js';
import type { InferenceServices } from '../services.js';

/**
 * Operator route (ours, /_emulator): set an organisation's plan, which picks its inference
 * rate limits (spec 8). `POST /_emulator/orgs/{orgId}/plan` `{ plan: free|pro|enterprise }`.
 */
export function registerOperatorPlan(app: App, svc: InferenceServices): void {
  app.post('/_emulator/orgs/:orgId/plan', async (c) => {
    let plan: unknown;
    try {
      plan = ((await c.req.json()) as { plan?: unknown }).plan;
    } catch {
      return c.json({ error: 'invalid_json', message: 'body must be {"plan": "free"|"pro"|"enterprise"}' }, 400);
    }
    if (typeof plan !== 'string' || !(plan in defaultPlanRates)) {
      return c.json({ error: 'invalid_request', detail: `plan: one of ${Object.keys(defaultPlanRates).join(', ')}` }, 400);
    }
    const r = svc.ctx.db.prepare('UPDATE orgs SET plan = ? WHERE id = ?').run(plan, c.req.param('orgId'));
    if (r.changes === 0) return c.json({ error: 'not_found', message: 'no such organisation' }, 404);
    return c.json({ org_id: c.req.param('orgId'), plan });
  });
}
