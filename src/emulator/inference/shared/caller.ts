import type { Context } from 'hono';
import { hasScope, type Scope } from '../../../contract/scopes.js';
import { bearer } from '../../auth/authenticate.js';
import { findKey } from '../../auth/credentials.js';
import type { EmulatorContext } from '../../context.js';
import { findOrgToken } from '../orgs/token-store.js';
import { InferenceError } from './errors.js';
import { workspaceSql } from '../../workspaces/sql.js';
import { orgSql } from '../orgs/sql.js';

/**
 * Who is calling an inference route (spec 5.2 "Inference key"): a dashboard-issued key
 * (the emulator's secret keys) or an organisation token. Either way the call is billed
 * and rate-limited to one organisation (spec 8).
 */
export interface InferenceCaller {
  /** api_keys.id or org_tokens.id */
  keyId: string;
  kind: 'key' | 'org_token';
  orgId: string;
  plan: string;
  scopes: string[];
}

/** A write scope implies its read scope, and admin implies user (docs/fidelity.md). */
const impliedBy: Record<InferenceScope, readonly Scope[]> = {
  'user:read': ['user:read', 'user:write', 'admin:read', 'admin:write'],
  'user:write': ['user:write', 'admin:write'],
  'admin:read': ['admin:read', 'admin:write'],
  'admin:write': ['admin:write'],
};

export type InferenceScope = 'user:read' | 'user:write' | 'admin:read' | 'admin:write';

const unauthorized = (m: string) => new InferenceError(401, 'unauthorized', m);

function orgOfKey(
  ctx: EmulatorContext,
  workspaceId: string | null,
  userId: string,
): { id: string; plan: string } | undefined {
  if (workspaceId) {
    const row = workspaceSql(ctx.db).getWorkspaceOrg.get(workspaceId) as
      | { id: string; plan: string }
      | undefined;
    if (row) return row;
  }
  // A dashboard key is not workspace-bound: it acts for its user's (first) organisation.
  return orgSql(ctx.db).getOrgsByOwnerUserId.get(userId) as
    | { id: string; plan: string }
    | undefined;
}

export function authenticateInference(
  ctx: EmulatorContext,
  c: Context,
  need: InferenceScope,
): InferenceCaller {
  const raw = bearer(c);
  if (raw === null) throw unauthorized('missing Authorization: Bearer <API_KEY>');
  if (raw === '') throw unauthorized('malformed Authorization header');
  let caller: InferenceCaller;
  const token = findOrgToken(ctx.db, raw);
  if (token) {
    if (token.status !== 'active') throw unauthorized('organisation token revoked');
    const org = orgSql(ctx.db).getOrgsPlanById.get(token.org_id) as { plan: string } | undefined;
    if (!org) throw unauthorized('organisation of this token no longer exists');
    caller = {
      keyId: token.id,
      kind: 'org_token',
      orgId: token.org_id,
      plan: org.plan,
      scopes: JSON.parse(token.scopes) as string[],
    };
  } else {
    const key = findKey(ctx.db, raw);
    if (!key) throw unauthorized('invalid API key');
    if (key.status !== 'active') throw unauthorized('API key revoked');
    if (key.kind !== 'secret') {
      throw new InferenceError(
        403,
        'forbidden',
        `${key.kind} keys cannot call inference routes; use a secret key or an organisation token`,
      );
    }
    const org = orgOfKey(ctx, key.workspace_id, key.user_id);
    if (!org) throw new InferenceError(403, 'forbidden', 'this key belongs to no organisation');
    caller = {
      keyId: key.id,
      kind: 'key',
      orgId: org.id,
      plan: org.plan,
      scopes: JSON.parse(key.scopes) as string[],
    };
  }
  if (!hasScope(caller.scopes, { anyOf: impliedBy[need] })) {
    throw new InferenceError(403, 'forbidden', `key lacks scope ${need}`);
  }
  return caller;
}
