import {
  createWorkspace,
  getWorkspace,
  listWorkspaces,
  updateWorkspace,
} from '../../contract/operations/core.js';
import type { WorkspaceRow } from '../auth/workspace.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { implement, reply } from '../http/router.js';
import { insertWorkspace, toWorkspace } from './store.js';
import { workspaceSql } from './sql.js';

export function registerWorkspaces(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;

  // A bound key sees its own workspace; a dashboard key sees every workspace of its user.
  implement(app, ctx, listWorkspaces, ({ auth }) => {
    const rows = auth.workspaceId
      ? (workspaceSql(db).getWorkspacesById.all(auth.workspaceId) as WorkspaceRow[])
      : (workspaceSql(db).listWorkspacesByOwnerUserId.all(auth.userId) as WorkspaceRow[]);
    return { data: rows.map(toWorkspace) };
  });

  implement(app, ctx, createWorkspace, ({ auth, body }) => {
    const org = workspaceSql(db).getWorkspacesOrgIdByOwnerUserId.get(auth.userId) as
      | { org_id: string | null }
      | undefined;
    const ws = insertWorkspace(ctx, {
      name: body.name,
      plan: body.plan,
      ownerUserId: auth.userId,
      orgId: org?.org_id ?? null,
    });
    return reply(201, toWorkspace(ws));
  });

  implement(app, ctx, getWorkspace, ({ auth, params }) =>
    toWorkspace(workspaceFromPath(db, auth, params.wsId)),
  );

  implement(app, ctx, updateWorkspace, ({ auth, params, body }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    workspaceSql(db).setWorkspacesNameById.run(body.name, unixSeconds(ctx.clock), ws.id);
    return toWorkspace(workspaceFromPath(db, auth, ws.id));
  });
}
