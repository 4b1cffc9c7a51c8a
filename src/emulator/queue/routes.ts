/**
 * Queue ticket routes (spec 4.5): a pure status read that counts as a liveness touch
 * (always 200; `expired` for unknown, aged-out, cancelled, lapsed and other-workspace
 * tickets), and cancel (always 204; a reserved seat passes to the next compatible waiter).
 */
import { queueCancel, queueStatus } from '../../contract/operations/sessions.js';
import type { AuthContext } from '../auth/authenticate.js';
import { canAccessWorkspace, type WorkspaceRow } from '../auth/workspace.js';
import type { App, EmulatorContext } from '../context.js';
import { implement, reply } from '../http/router.js';
import { sessionRuntime } from '../sessions/runtime.js';

export function registerQueueRoutes(app: App, ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);
  const wsStmt = ctx.db.prepare('SELECT * FROM workspaces WHERE id = ?');

  /** The caller's ticket scope, or null when the caller cannot own any ticket there. */
  const scopeOf = (auth: AuthContext, explicit: string | undefined): string | null => {
    if (auth.workspaceId) return !explicit || explicit === auth.workspaceId ? auth.workspaceId : null;
    if (!explicit) return `user:${auth.userId}`;
    const ws = wsStmt.get(explicit) as WorkspaceRow | undefined;
    return ws && canAccessWorkspace(auth, ws) ? ws.id : null;
  };
  const ticketFor = (auth: AuthContext, id: string, explicit: string | undefined) => {
    const t = rt.queue.get(id);
    return t && t.scope === scopeOf(auth, explicit) ? t : undefined;
  };

  implement(app, ctx, queueStatus, ({ auth, params, query }) => {
    const t = ticketFor(auth, params.ticket, query.workspace_id);
    if (t) rt.queue.touch(t);
    return rt.queue.view(t);
  });

  implement(app, ctx, queueCancel, ({ auth, params, query }) => {
    const t = ticketFor(auth, params.ticket, query.workspace_id);
    if (t) rt.queue.cancel(t.id);
    return reply(204);
  });
}
