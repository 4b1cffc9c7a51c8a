import { orgPlan } from '../../../contract/operations/operator.js';
import { ApiError } from '../../../server/api-error.js';
import { implement } from '../../http/router.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import { orgSql } from './sql.js';

/**
 * Operator route (ours, /_emulator): set an organisation's plan, which picks its inference
 * rate limits (spec 8). `POST /_emulator/orgs/{orgId}/plan` `{ plan: free|pro|enterprise }`.
 */
export function registerOperatorPlan(app: App, svc: InferenceServices): void {
  implement(app, svc.ctx, orgPlan, ({ params, body }) => {
    const r = orgSql(svc.ctx.db).setOrgsPlanById.run(body.plan, params.orgId);
    if (r.changes === 0) throw new ApiError(404, 'not_found', { message: 'no such organisation' });
    return { org_id: params.orgId, plan: body.plan };
  });
}
