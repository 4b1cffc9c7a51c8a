import { Scopes } from '../../../contract/scopes.js';
import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from '../shared/caller.js';
import { InferenceError, invalid, notFound } from '../shared/errors.js';
import { implementInference } from '../shared/route.js';
import { insertOrgToken, tokenView, type OrgTokenRow } from './token-store.js';
import { usageAggregates } from './usage.js';
import { orgSql } from './sql.js';

const INFERENCE_SCOPES = ['user:read', 'user:write', 'admin:read', 'admin:write', '*'];

/** The path's organisation must be the caller's own: another org is 404 (it does not exist for it). */
function ownOrg(svc: InferenceServices, caller: InferenceCaller, orgId: string): void {
  const row = orgSql(svc.ctx.db).getOrgsIdById.get(orgId);
  if (!row || orgId !== caller.orgId) throw notFound(`organization ${orgId}`);
}

/** Spec 4.12 organisation tokens (secret returned once) and usage aggregates. */
export function registerOrgs(app: App, svc: InferenceServices): void {
  // Ours: the organisation the key acts for (its id is needed by the routes below).
  implementInference(app, svc, inference.organizations, ({ auth: { caller } }) => {
    const org = orgSql(svc.ctx.db).getOrgsById.get(caller.orgId) as {
      id: string;
      name: string;
      plan: string;
      created_at: number;
    };
    return { data: [org] };
  });
  implementInference(
    app,
    svc,
    inference.createOrgToken,
    async ({ params, body: b, auth: { caller } }) => {
      ownOrg(svc, caller, params.orgId);
      // An organisation token only ever opens inference routes (spec 5.2), so a control-plane
      // scope on it would be a promise nothing keeps: refuse it by name.
      const bad = b.scopes.find((s) => !INFERENCE_SCOPES.includes(s));
      if (bad) {
        const why = (Scopes as readonly string[]).includes(bad)
          ? 'is a control-plane scope; organisation tokens open inference routes only'
          : 'is not a scope';
        throw invalid(`scopes: ${bad} ${why} (use ${INFERENCE_SCOPES.join(', ')})`, 'scopes');
      }
      const { row, secret } = insertOrgToken(svc.ctx, caller.orgId, b.name, b.scopes);
      return { token: tokenView(row), secret };
    },
  );
  implementInference(app, svc, inference.orgTokens, ({ params, auth: { caller } }) => {
    ownOrg(svc, caller, params.orgId);
    const rows = orgSql(svc.ctx.db).listOrgTokensByOrgId.all(caller.orgId) as OrgTokenRow[];
    return { data: rows.map(tokenView) };
  });
  implementInference(app, svc, inference.revokeOrgToken, ({ params, auth: { caller } }) => {
    ownOrg(svc, caller, params.orgId);
    const id = params.tokenId;
    const row = orgSql(svc.ctx.db).getOrgTokensByIdAndOrgId.get(id, caller.orgId) as
      | OrgTokenRow
      | undefined;
    if (!row) throw notFound(`token ${id}`);
    if (row.status === 'active') {
      orgSql(svc.ctx.db).revokeOrgTokenById.run(Math.floor(svc.ctx.clock.now() / 1000), id);
    }
    const after = orgSql(svc.ctx.db).getOrgTokensRevokedAtById.get(id) as {
      revoked_at: number;
    };
    return { ok: true, revoked_at: after.revoked_at };
  });
  implementInference(app, svc, inference.orgUsage, ({ c, params, auth: { caller } }) => {
    ownOrg(svc, caller, params.orgId);
    const now = Math.floor(svc.ctx.clock.now() / 1000);
    const num = (name: string, dflt: number) => {
      const v = c.req.query(name);
      if (v === undefined) return dflt;
      if (!/^\d+$/.test(v)) throw invalid(`${name}: Unix seconds`, name);
      return Number(v);
    };
    const end = num('end', now + 1);
    const start = num('start', end - 30 * 86_400);
    if (start >= end) throw invalid('start: must be before end', 'start');
    if (end - start > 366 * 86_400)
      throw new InferenceError(400, 'invalid_request', 'a usage window is at most 366 days', {
        param: 'start',
      });
    return usageAggregates(svc.ctx.db, caller.orgId, start, end);
  });
}
