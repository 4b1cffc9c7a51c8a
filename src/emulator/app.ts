import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import {
  asyncapi as asyncapiOp,
  jwks as jwksOp,
  openapi as openapiOp,
} from '../contract/operations/core.js';
import { buildAsyncApiDocument } from '../contract/asyncapi.js';
import { allOperations } from '../contract/operations/index.js';
import { buildOpenApiDocument } from '../contract/openapi.js';
import type { AppEnv, App, EmulatorContext } from './context.js';
import { registerAvatars } from './avatars/routes.js';
import { registerDevices } from './devices/routes.js';
import { registerGallery } from './gallery/routes.js';
import { registerGenerations } from './generations/routes.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { implement } from './http/router.js';
import { registerIssuers } from './issuers/routes.js';
import { registerInference } from './inference/register.js';
import { operatorGuard } from './operator/guard.js';
import { registerOperator } from './operator/routes.js';
import { registerPlayground } from './ui/routes.js';
import { registerSessions } from './sessions/register.js';
import type { SigningKey } from './signing/keys.js';
import { registerTokens } from './tokens/routes.js';
import { registerWorkspaces } from './workspaces/routes.js';
import { registerBuiltinRoutes } from './tools/builtins.js';
import { registerMcpRoutes } from './tools/registry.js';
import type { ScriptRegistry } from './scripts/registry.js';
import { registerScriptRoutes } from './scripts/routes.js';

export const VERSION = '0.1.0';

export interface AppDeps {
  signing: SigningKey;
  startedAt: number;
  /** The loaded conversation scripts (built once by start.ts). */
  scripts: ScriptRegistry;
}

/** The whole control plane as one Hono app; `app.request()` runs it in-process in tests. */
export function createApp(ctx: EmulatorContext, deps: AppDeps): App {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(ctx.log));
  app.notFound(notFoundHandler);
  // Browsers call the control plane with publishable keys (spec 5.2), so it answers CORS.
  // Any Origin may pass the preflight; a publishable key's registered origins are enforced
  // by auth itself. (The edge's POST /chat deliberately sets no CORS headers, spec 4.6.)
  const corsHeaders = cors({
    origin: (origin) => origin || null,
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // Requested headers are reflected (keys do the guarding): the inference routes under
    // /api/* are called by SDKs that send their own headers (x-stainless-*).
    exposeHeaders: [
      'Retry-After',
      'Content-Range',
      'X-Clone-Ms',
      'X-Gen-Ms',
      'X-Total-Ms',
      'X-Duration',
      'X-Box-Id',
    ],
    maxAge: 600,
  });
  // Only a request with an Origin is a CORS request. Hono's cors sets its headers before the
  // handler runs, which makes the final response be rebuilt with a stream body (about a
  // quarter of a server-to-server mint, issue 7 item 13), so requests without one skip it.
  const corsWhenOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (c.req.header('origin') !== undefined) return corsHeaders(c, next);
    await next();
    // On the response itself: c.header() after the handler would rebuild it.
    c.res.headers.append('Vary', 'Origin');
  };
  app.use('/api/*', corsWhenOrigin);
  // Operator routes: a credential, no cross-origin writes, no CORS (docs/security.md).
  app.use('/_emulator/*', operatorGuard(ctx));
  app.use('/.well-known/*', corsWhenOrigin);
  if (ctx.options.verbose) {
    app.use(async (c, next) => {
      await next();
      ctx.log(`${c.req.method} ${c.req.path} -> ${c.res.status}`);
    });
  }

  registerWorkspaces(app, ctx);
  registerTokens(app, ctx);
  registerDevices(app, ctx);
  registerIssuers(app, ctx);
  registerGallery(app, ctx);
  registerAvatars(app, ctx);
  registerOperator(app, ctx, { version: VERSION, startedAt: deps.startedAt });
  registerScriptRoutes(app, ctx, deps.scripts);
  registerSessions(app, ctx, deps.signing, deps.scripts);
  registerPlayground(app, ctx);
  registerGenerations(app, ctx);
  registerMcpRoutes(app, ctx);
  registerBuiltinRoutes(app, ctx);
  registerInference(app, ctx);

  implement(app, ctx, jwksOp, () => ({ keys: [deps.signing.publicJwk] }));
  // Built on first request, not at start: it converts every schema (a few % of a start-up).
  let doc: ReturnType<typeof buildOpenApiDocument> | undefined;
  implement(
    app,
    ctx,
    openapiOp,
    () => (doc ??= buildOpenApiDocument(allOperations, { version: VERSION })),
  );
  let asyncDoc: ReturnType<typeof buildAsyncApiDocument> | undefined;
  implement(app, ctx, asyncapiOp, () => (asyncDoc ??= buildAsyncApiDocument({ version: VERSION })));
  return app;
}
