import type { App, EmulatorContext } from '../context.js';
import { registerBoxApi } from './box-api.js';
import { registerFleetOperator } from './operator-routes.js';
import { registerRecordings } from './recordings.js';
import { registerQueueRoutes } from '../queue/routes.js';
import type { ScriptRegistry } from '../scripts/registry.js';
import type { SigningKey } from '../signing/keys.js';
import { registerWebhookRoutes } from '../webhooks/routes.js';
import { registerSessionRoutes } from './routes.js';
import { sessionRuntime } from './runtime.js';

/** Issue 4 in one call from app.ts: queue routes first (their paths are more specific). */
export function registerSessions(
  app: App,
  ctx: EmulatorContext,
  signing: SigningKey,
  scripts: ScriptRegistry,
): void {
  const { queue } = sessionRuntime(ctx);
  registerQueueRoutes(app, ctx, queue);
  registerSessionRoutes(app, ctx, signing, scripts);
  registerWebhookRoutes(app, ctx, queue);
  registerBoxApi(app, ctx);
  registerFleetOperator(app, ctx);
  registerRecordings(app, ctx);
}
