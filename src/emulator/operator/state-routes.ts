import { ApiError } from '../../server/api-error.js';
import { implement, parseJson } from '../http/router.js';
import { stateExport, stateImport, stateReset } from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { exportState, importState, resetState, StateError } from './state.js';

/**
 * State over operator routes (issue 18 item 3; docs/testing.md "State"):
 * - `GET /_emulator/state/export` -> the state document (every table and blob)
 * - `POST /_emulator/state/import` (a state document) -> `{ imported: true, keys }`
 * - `POST /_emulator/state/reset { keep_keys?: boolean }` (default true) -> `{ reset: true, keys }`
 * Live sessions end and the queue empties first (seats are not state that survives).
 */
export function registerStateRoutes(app: App, ctx: EmulatorContext, version: string): void {
  const keysBody = (k: ReturnType<typeof resetState>) => ({
    workspace_id: k.workspaceId,
    org_id: k.orgId,
    secret_key: k.secretKey,
    dashboard_key: k.dashboardKey,
  });
  implement(app, ctx, stateExport, () => ({ ...exportState(ctx, version) }));
  implement(app, ctx, stateImport, ({ raw }) => {
    const doc = parseJson(raw);
    try {
      return { imported: true as const, keys: keysBody(importState(ctx, doc)) };
    } catch (e) {
      if (e instanceof StateError)
        throw new ApiError(e.code === 'state_too_new' ? 409 : 400, e.code, { detail: e.detail });
      throw e;
    }
  });
  implement(app, ctx, stateReset, ({ body }) => {
    return { reset: true as const, keys: keysBody(resetState(ctx, body.keep_keys ?? true)) };
  });
}
