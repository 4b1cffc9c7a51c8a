import type { App, EmulatorContext } from '../context.js';
import { registerBoxApi } from '../fleet/box-api.js';
import { registerFleetOperator } from '../fleet/operator-routes.js';
import { registerRecordings } from '../fleet/recordings.js';
import { registerQueueRoutes } from '../queue/routes.js';
import type { SigningKey } from '../signing/keys.js';
import { registerWebhookRoutes } from '../webhooks/routes.js';
import { registerSessionRoutes } from './routes.js';

/** Issue 4 in one call from app.ts: queue routes first (their paths are more specific). */
export function registerSessions(app: App, ctx: EmulatorContext, signing: SigningKey): void {
  registerQueueRoutes(app, ctx);
  registerSessionRoutes(app, ctx, signing);
  registerWebhookRoutes(app, ctx);
  registerBoxApi(app, ctx);
  registerFleetOperator(app, ctx);
  registerRecordings(app, ctx);
}
