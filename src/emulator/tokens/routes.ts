import { createToken, listTokens, revokeToken } from '../../contract/operations/core.js';
import { CONNECT_ONLY } from '../../contract/scopes.js';
import type { KeyRow } from '../auth/credentials.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import { insertKey } from './store.js';
import { tokenSql } from './sql.js';

function toToken(r: KeyRow) {
  return {
    id: r.id,
    name: r.name,
    token_prefix: r.token_prefix,
    scopes: JSON.parse(r.scopes) as string[],
    status: r.status,
    workspace_id: r.workspace_id,
    kind: r.kind,
    allowed_origins: r.allowed_origins,
    created_at: r.created_at,
  };
}

export function registerTokens(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;

  // Device credentials are listed under their device, not here.
  implement(app, ctx, listTokens, ({ auth }) => {
    const rows = auth.workspaceId
      ? tokenSql(db).listApiKeysByWorkspaceId.all(auth.workspaceId)
      : tokenSql(db).listApiKeysByUserId.all(auth.userId);
    return { data: (rows as KeyRow[]).map(toToken) };
  });

  implement(app, ctx, createToken, ({ auth, body }) => {
    // A bound key creates keys for its own workspace; a dashboard key may create unbound keys.
    const workspaceId = body.workspaceId ?? auth.workspaceId;
    if (workspaceId) workspaceFromPath(db, auth, workspaceId);
    const publishable = body.kind === 'publishable';
    const scopes = publishable ? [...CONNECT_ONLY] : body.scopes;
    const origins = publishable ? [...new Set(body.allowedOrigins ?? [])] : null;
    const { row, raw } = insertKey(ctx, {
      userId: auth.userId,
      workspaceId: workspaceId ?? null,
      name: body.name,
      kind: body.kind,
      scopes,
      allowedOrigins: origins,
    });
    return reply(201, {
      id: row.id,
      name: row.name,
      token: raw,
      scopes,
      kind: row.kind,
      allowed_origins: origins,
      created_at: row.created_at,
    });
  });

  implement(app, ctx, revokeToken, ({ auth, params }) => {
    const row = tokenSql(db).getApiKeyNotDeviceById.get(params.tokenId) as KeyRow | undefined;
    const visible =
      row &&
      (auth.workspaceId ? row.workspace_id === auth.workspaceId : row.user_id === auth.userId);
    if (!row || !visible)
      throw new ApiError(404, 'not_found', { message: `token ${params.tokenId} not found` });
    // Revoking twice answers the first revocation time (idempotent).
    if (row.status === 'revoked') return { ok: true as const, revoked_at: row.revoked_at! };
    const now = unixSeconds(ctx.clock);
    tokenSql(db).revokeApiKeyById.run(now, row.id);
    return { ok: true as const, revoked_at: now };
  });
}
