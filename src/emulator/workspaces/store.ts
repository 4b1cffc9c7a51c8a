import type { Workspace } from '../../contract/resources/workspace.js';
import type { WorkspaceRow } from '../auth/workspace.js';
import type { EmulatorContext } from '../context.js';
import { unixSeconds } from '../clock.js';

export function toWorkspace(r: WorkspaceRow): Workspace {
  return {
    id: r.id,
    name: r.name,
    plan: r.plan,
    owner_user_id: r.owner_user_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function insertWorkspace(
  ctx: EmulatorContext,
  w: { name: string; plan: string; ownerUserId: string; orgId: string | null },
): WorkspaceRow {
  const id = ctx.ids.uuid();
  ctx.db
    .prepare(
      `INSERT INTO workspaces (id, name, plan, owner_user_id, org_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, NULL)`,
    )
    .run(id, w.name, w.plan, w.ownerUserId, w.orgId, unixSeconds(ctx.clock));
  return ctx.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as WorkspaceRow;
}
