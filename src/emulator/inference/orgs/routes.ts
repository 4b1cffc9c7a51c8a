import { OrgTokenBody } from '../../../contract/resources/inference.js';
import { Scopes } from '../../../contract/scopes.js';
import * as inference from '../../../contract/operations/inference.js';
import type { App } from '../../context.js';
import type { InferenceServices } from '../services.js';
import type { InferenceCaller } from '../shared/caller.js';
import { InferenceError, invalid, notFound } from '../shared/errors.js';
import { param, inferenceRoute, json, jsonBody } from '../shared/route.js';
import { insertOrgToken, tokenView, type OrgTokenRow } from './token-store.js';
import { usageAggregates } from './usage.js';
import { orgSql } from './sql.js';

const INFERENCE_SCOPES = ['user:read', 'user:write', 'admin:read', 'admin:write', '*'];

const TokenBody = OrgTokenBody;

/** The path's organisation must be the caller's own: another org is 404 (it does not exist for it). */
function ownOrg(svc: InferenceServices, caller: InferenceCaller, orgId: string): void {
  const row = orgSql(svc.ctx.db).getOrgsIdById.get(orgId);
  if (!row || orgId !== caller.orgId) throw notFound(`organization ${orgId}`);
}

/** Spec 4.12 organisation tokens (secret returned once) and usage aggregates. */
export function registerOrgs(app: App, svc: InferenceServices): void {
  // Ours: the organisation the key acts for (its id is needed by the routes below).
  inferenceRoute(app, svc, inference.organizations, ({ caller }) => {
    const org = orgSql(svc.ctx.db).getOrgsById.get(caller.orgId);
    return json({ data: [org] });
  });
  inferenceRoute(app, svc, inference.createOrgToken, async ({ c, caller }) => {
    ownOrg(svc, caller, param(c, 'orgId'));
    const b = await jsonBody(c, TokenBody);
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
    return json({ token: tokenView(row), secret }, 201);
  });
  inferenceRoute(app, svc, inference.orgTokens, ({ c, caller }) => {
    ownOrg(svc, caller, param(c, 'orgId'));
    const rows = orgSql(svc.ctx.db).listOrgTokensByOrgId.all(caller.orgId) as OrgTokenRow[];
    return json({ data: rows.map(tokenView) });
  });
  inferenceRoute(app, svc, inference.revokeOrgToken, ({ c, caller }) => {
    ownOrg(svc, caller, param(c, 'orgId'));
    const id = param(c, 'tokenId');
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
    return json({ ok: true, revoked_at: after.revoked_at });
  });
  inferenceRoute(app, svc, inference.orgUsage, ({ c, caller }) => {
    ownOrg(svc, caller, param(c, 'orgId'));
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
    return json(usageAggregates(svc.ctx.db, caller.orgId, start, end));
  });
}
