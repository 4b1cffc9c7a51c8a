/**
 * Built-in servers per workspace (spec 4.11): list and enable/disable. Unknown key: 404
 * `builtin_server_not_found`. The list shape is ours (docs/fidelity.md "Tools").
 */
import { BUILTIN_SERVERS } from '../../contract/builtins.js';
import { ErrorCode } from '../../contract/errors.js';
import { listBuiltinServers, putBuiltinServer } from '../../contract/operations/tools.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import { implement } from '../http/router.js';
import { toolSql } from './sql.js';
import { own } from '../../contract/own.js';

export function builtinEnabled(db: Db, workspaceId: string, key: string): boolean {
  const row = toolSql(db).getBuiltinServerEnabled.get(workspaceId, key) as
    | { enabled: number }
    | undefined;
  return row?.enabled === 1;
}

const view = (db: Db, workspaceId: string, key: string) => ({
  key,
  enabled: builtinEnabled(db, workspaceId, key),
  tools: own(BUILTIN_SERVERS, key)!.map((t) => ({ name: t.name, description: t.description })),
});

export function registerBuiltinRoutes(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;
  implement(app, ctx, listBuiltinServers, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    return { data: Object.keys(BUILTIN_SERVERS).map((k) => view(db, ws.id, k)) };
  });

  implement(app, ctx, putBuiltinServer, ({ auth, params, body }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    if (!own(BUILTIN_SERVERS, params.serverKey)) {
      throw new ApiError(404, ErrorCode.builtinServerNotFound, {
        message: `unknown built-in server ${params.serverKey}`,
      });
    }
    toolSql(db).upsertBuiltinServers.run(
      ws.id,
      params.serverKey,
      body.enabled ? 1 : 0,
      unixSeconds(ctx.clock),
    );
    return view(db, ws.id, params.serverKey);
  });
}
