import type { Db } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import type { AuthContext } from './authenticate.js';
import { workspaceSql } from '../workspaces/sql.js';

export interface WorkspaceRow {
  id: string;
  name: string;
  plan: string;
  owner_user_id: string;
  org_id: string | null;
  zdr: number;
  features: string;
  created_at: number;
  updated_at: number | null;
}

/** Is this workspace one the caller may act on? Bound keys: only theirs; unbound: the user's. */
export function canAccessWorkspace(auth: AuthContext, ws: WorkspaceRow): boolean {
  if (auth.workspaceId) return auth.workspaceId === ws.id;
  return ws.owner_user_id === auth.userId;
}

/** An explicit `{wsId}` route: 404 if it does not exist, 403 if the key cannot reach it. */
export function workspaceFromPath(db: Db, auth: AuthContext, wsId: string): WorkspaceRow {
  const ws = workspaceSql(db).getWorkspacesById.get(wsId) as WorkspaceRow | undefined;
  if (!ws) throw new ApiError(404, 'not_found', { message: `workspace ${wsId} not found` });
  if (!canAccessWorkspace(auth, ws)) {
    throw new ApiError(403, 'forbidden', { message: 'key is not a member of this workspace' });
  }
  return ws;
}

/**
 * A token-relative route: the key's bound workspace, else an explicit `workspace_id`
 * (query or body), else 400 `workspace_id_required` (spec 5.2).
 */
export function workspaceForKey(db: Db, auth: AuthContext, explicit?: string | null): WorkspaceRow {
  if (auth.workspaceId) {
    if (explicit && explicit !== auth.workspaceId) {
      throw new ApiError(403, 'forbidden', { message: 'key is bound to another workspace' });
    }
    return workspaceFromPath(db, auth, auth.workspaceId);
  }
  if (!explicit) {
    throw new ApiError(400, 'workspace_id_required', {
      message: 'this key is not workspace-bound: pass workspace_id',
    });
  }
  return workspaceFromPath(db, auth, explicit);
}
