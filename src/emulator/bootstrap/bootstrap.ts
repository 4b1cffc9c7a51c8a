import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { getSetting, setSetting } from '../db/database.js';
import { findKey } from '../auth/credentials.js';
import { insertKey } from '../tokens/store.js';
import { insertWorkspace } from '../workspaces/store.js';
import type { OrgPlan } from '../option-limits.js';
import { workspaceSql } from '../workspaces/sql.js';
import { orgSql } from '../inference/orgs/sql.js';

/**
 * The plan of the bootstrap organisation when `--org-plan` is not given (issue 18 item 10,
 * docs/fidelity.md "Plan of the emulator's own organisation"): enterprise, so a test
 * suite's 11th chat completion in a minute is not a 429 with Retry-After: 60. The
 * workspace stays `free` (the spec shows no workspace plan beyond it).
 */
export const defaultOrgPlan: OrgPlan = 'enterprise';

/** The credentials `avatar emulator start` prints (and `--json` emits). */
export interface BootstrapKeys {
  workspaceId: string;
  orgId: string;
  userId: string;
  /** Workspace-bound secret key, scopes `["*"]`. */
  secretKey: string;
  /** Dashboard-style key: not bound to a workspace, scopes `["*"]`. */
  dashboardKey: string;
}

/**
 * First start of a data dir creates the operator user, an organisation, a default
 * workspace and the two keys. The raw keys are kept in the data dir's settings so a
 * restart on the same dir prints the same keys (a local dev convenience, like a
 * credentials file; the keys table itself holds only hashes).
 */
export function bootstrap(ctx: EmulatorContext): BootstrapKeys {
  const existing = getSetting(ctx.db, 'bootstrap');
  const orgPlan = ctx.options.orgPlan as OrgPlan | undefined;
  if (existing) {
    const keys = renewRevoked(ctx, JSON.parse(existing) as BootstrapKeys);
    // An existing data dir keeps its plan unless --org-plan says otherwise.
    if (orgPlan) orgSql(ctx.db).setOrgsPlanById.run(orgPlan, keys.orgId);
    return keys;
  }
  return ctx.db.transaction(() => {
    const now = unixSeconds(ctx.clock);
    const userId = ctx.ids.uuid();
    const orgId = ctx.ids.uuid();
    workspaceSql(ctx.db).insertUsers.run(userId, 'dev@localhost', now);
    orgSql(ctx.db).insertOrgs.run(
      orgId,
      'Local organisation',
      orgPlan ?? defaultOrgPlan,
      userId,
      now,
    );
    const ws = insertWorkspace(ctx, {
      name: 'Default workspace',
      plan: 'free',
      ownerUserId: userId,
      orgId,
    });
    const secret = insertKey(ctx, {
      userId,
      workspaceId: ws.id,
      name: 'emulator secret key',
      kind: 'secret',
      scopes: ['*'],
      allowedOrigins: null,
    });
    const dashboard = insertKey(ctx, {
      userId,
      workspaceId: null,
      name: 'emulator dashboard key',
      kind: 'secret',
      scopes: ['*'],
      allowedOrigins: null,
    });
    const keys: BootstrapKeys = {
      workspaceId: ws.id,
      orgId,
      userId,
      secretKey: secret.raw,
      dashboardKey: dashboard.raw,
    };
    setSetting(ctx.db, 'bootstrap', JSON.stringify(keys));
    return keys;
  })();
}

/**
 * The printed keys must work: one revoked through the API (say while trying
 * `avatar tokens revoke` on the listed keys) is replaced by a fresh key of the same kind,
 * binding and scopes, so the CLI is not locked out of its own emulator for good.
 */
function renewRevoked(ctx: EmulatorContext, keys: BootstrapKeys): BootstrapKeys {
  const usable = (raw: string) => findKey(ctx.db, raw)?.status === 'active';
  if (usable(keys.secretKey) && usable(keys.dashboardKey)) return keys;
  return ctx.db.transaction(() => {
    const next = { ...keys };
    const renew = (workspaceId: string | null, name: string) =>
      insertKey(ctx, {
        userId: keys.userId,
        workspaceId,
        name,
        kind: 'secret',
        scopes: ['*'],
        allowedOrigins: null,
      }).raw;
    if (!usable(keys.secretKey)) next.secretKey = renew(keys.workspaceId, 'emulator secret key');
    if (!usable(keys.dashboardKey)) next.dashboardKey = renew(null, 'emulator dashboard key');
    setSetting(ctx.db, 'bootstrap', JSON.stringify(next));
    return next;
  })();
}
