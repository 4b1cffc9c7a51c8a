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
  app.get(stateExport.path, (c) => c.json(exportState(ctx, version)));
  app.post(stateImport.path, async (c) => {
    let doc: unknown;
    try {
      doc = await c.req.json();
    } catch {
      return c.json({ error: 'invalid_json', message: 'body must be a state document from GET /_emulator/state/export' }, 400);
    }
    try {
      return c.json({ imported: true, keys: keysBody(importState(ctx, doc)) });
    } catch (e) {
      if (e instanceof StateError) return c.json({ error: e.code, detail: e.detail }, e.code === 'state_too_new' ? 409 : 400);
      throw e;
    }
  });
  app.post(stateReset.path, async (c) => {
    let body: { keep_keys?: unknown } | null = null;
    try {
      const text = await c.req.text();
      body = text.trim() === '' ? {} : (JSON.parse(text) as { keep_keys?: unknown });
    } catch {
      return c.json({ error: 'invalid_json', message: 'body must be {"keep_keys": boolean}' }, 400);
    }
    const keep = body?.keep_keys ?? true;
    if (typeof keep !== 'boolean') return c.json({ error: 'invalid_request', detail: 'keep_keys: must be a boolean' }, 400);
    return c.json({ reset: true, keys: keysBody(resetState(ctx, keep)) });
  });
}
