/**
 * Queue ticket routes (spec 4.5): a pure status read that counts as a liveness touch
 * (always 200; `expired` for unknown, aged-out, cancelled, lapsed and other-workspace
 * tickets), and cancel (always 204; a reserved seat passes to the next compatible waiter).
 *
 * The status read also takes a trusted-issuer `id_token` (spec 4.5, 5.6) with query
 * `workspace_id`. The operation table's auth is API keys by scope; a JWT-shaped bearer is
 * recognised first by a handler registered on the same path just before the generic one,
 * which verifies it and answers, and leaves every other bearer to the generic auth
 * (docs/fidelity.md).
 */
import { toRouterPath } from '../../contract/operation.js';
import { queueCancel, queueStatus } from '../../contract/operations/sessions.js';
import { QueueQuery, TicketParams } from '../../contract/resources/session.js';
import { bearer, type AuthContext } from '../auth/authenticate.js';
import { canAccessWorkspace, type WorkspaceRow } from '../auth/workspace.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import { IdTokenVerifier, looksLikeJwt } from './id-token.js';
import type { SessionQueue } from './queue.js';
import { workspaceSql } from '../workspaces/sql.js';

/** The ticket routes over the context's queue (the session runtime owns it and passes it in). */
export function registerQueueRoutes(app: App, ctx: EmulatorContext, queue: SessionQueue): void {
  const wsStmt = workspaceSql(ctx.db).getWorkspacesById;
  const idTokens = new IdTokenVerifier(ctx.db, ctx.clock, {
    allowInsecureUrls: ctx.options.allowInsecureUrls,
  });

  /** The caller's ticket scope, or null when the caller cannot own any ticket there. */
  const scopeOf = (auth: AuthContext, explicit: string | undefined): string | null => {
    if (auth.workspaceId)
      return !explicit || explicit === auth.workspaceId ? auth.workspaceId : null;
    if (!explicit) return `user:${auth.userId}`;
    const ws = wsStmt.get(explicit) as WorkspaceRow | undefined;
    return ws && canAccessWorkspace(auth, ws) ? ws.id : null;
  };
  const ticketIn = (scope: string | null, id: string) => {
    const t = queue.get(id);
    return t && t.scope === scope ? t : undefined;
  };

  // spec 5.6: a trusted-issuer id_token is a credential here (and only here).
  app.get(toRouterPath(queueStatus.path), async (c, next) => {
    const raw = bearer(c);
    if (!raw || !looksLikeJwt(raw)) return next();
    const params = TicketParams.safeParse(c.req.param());
    if (!params.success) throw new ApiError(404, 'not_found', { message: 'no such resource' });
    const query = QueueQuery.safeParse(c.req.query());
    if (!query.success) {
      throw new ApiError(400, 'invalid_request', {
        message: 'invalid query',
        detail: 'workspace_id: Invalid UUID',
      });
    }
    const wsId = query.data.workspace_id;
    if (!wsId) {
      throw new ApiError(400, 'workspace_id_required', {
        message: 'an id_token names no workspace: pass workspace_id',
      });
    }
    const caller = await idTokens.verify(raw, wsId);
    const t = ticketIn(caller.workspaceId, params.data.ticket);
    if (t) queue.touch(t);
    return c.json(queue.view(t));
  });

  implement(app, ctx, queueStatus, ({ auth, params, query }) => {
    const t = ticketIn(scopeOf(auth, query.workspace_id), params.ticket);
    if (t) queue.touch(t);
    return queue.view(t);
  });

  implement(app, ctx, queueCancel, ({ auth, params, query }) => {
    const t = ticketIn(scopeOf(auth, query.workspace_id), params.ticket);
    if (t) queue.cancel(t.id);
    return reply(204);
  });
}
