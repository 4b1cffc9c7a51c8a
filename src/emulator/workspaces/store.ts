import type { Workspace } from '../../contract/resources/workspace.js';
import type { WorkspaceRow } from '../auth/workspace.js';
import type { EmulatorContext } from '../context.js';
import { unixSeconds } from '../clock.js';
import { workspaceSql } from './sql.js';

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
  workspaceSql(ctx.db).insertWorkspaces.run(
    id,
    w.name,
    w.plan,
    w.ownerUserId,
    w.orgId,
    unixSeconds(ctx.clock),
  );
  return workspaceSql(ctx.db).getWorkspacesById.get(id) as WorkspaceRow;
}
