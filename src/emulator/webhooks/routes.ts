/**
 * Workspace webhook endpoints (spec 4.11, 6.3). Request and response shapes are ours
 * (docs/fidelity.md): `{ url, events, secret?, description? }` -> 201 with the record and
 * its signing secret, shown once.
 */
import { ErrorCode } from '../../contract/errors.js';
import { createWebhook, deleteWebhook, listWebhooks } from '../../contract/operations/webhooks.js';
import { isAllowedUrl, liftedByInsecureUrls } from '../../contract/validators/https-url.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import type { SessionQueue } from '../queue/queue.js';
import { subscribes } from '../../contract/resources/webhook.js';
import { webhookSql } from './sql.js';

/** Longest endpoint URL (ours; docs/fidelity.md). */
const MAX_URL_CHARS = 2048;

interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: string;
  secret: string;
  description: string | null;
  status: 'active';
  created_at: number;
}

const toWebhook = (r: WebhookRow) => ({
  id: r.id,
  workspace_id: r.workspace_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  description: r.description,
  status: r.status,
  created_at: r.created_at,
});

/** The webhook routes; a new queue.position subscriber starts hearing about `queue`'s tickets at once. */
export function registerWebhookRoutes(app: App, ctx: EmulatorContext, queue: SessionQueue): void {
  const { db } = ctx;
  const secretOnly = (kind: string) => {
    if (kind !== 'secret')
      throw new ApiError(403, ErrorCode.forbidden, { message: 'secret key required' });
  };

  implement(app, ctx, createWebhook, ({ auth, params, body }) => {
    secretOnly(auth.kind);
    const ws = workspaceFromPath(db, auth, params.wsId);
    if (body.url.length > MAX_URL_CHARS) {
      throw new ApiError(400, ErrorCode.invalidRequest, {
        message: `url is over ${MAX_URL_CHARS} characters`,
        detail: `url: at most ${MAX_URL_CHARS} characters`,
      });
    }
    if (!isAllowedUrl(body.url, ctx.options.allowInsecureUrls)) {
      throw new ApiError(400, ErrorCode.invalidRequest, {
        message: liftedByInsecureUrls('url must be an https URL'),
        detail: 'url: must be https',
      });
    }
    const id = ctx.ids.uuid();
    const secret = body.secret ?? `whsec_${ctx.ids.hex(24)}`;
    const events = [...new Set(body.events)];
    webhookSql(db).insertWebhooks.run(
      id,
      ws.id,
      body.url,
      JSON.stringify(events),
      secret,
      body.description ?? null,
      unixSeconds(ctx.clock),
    );
    // Tickets already in line start getting queue.position too.
    if (subscribes(events, 'queue.position')) queue.watchPositions((t) => t.workspaceId === ws.id);
    const row = webhookSql(db).getWebhooksById.get(id) as WebhookRow;
    return reply(201, { ...toWebhook(row), secret });
  });

  implement(app, ctx, listWebhooks, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const rows = webhookSql(db).listWebhooksByWorkspaceId.all(ws.id) as WebhookRow[];
    return { data: rows.map(toWebhook) };
  });

  implement(app, ctx, deleteWebhook, ({ auth, params }) => {
    secretOnly(auth.kind);
    const ws = workspaceFromPath(db, auth, params.wsId);
    webhookSql(db).deleteWebhooksByIdAndWorkspaceId.run(params.webhookId, ws.id);
    return reply(204);
  });
}
