/**
 * The playground (issue 17): a page served by the emulator itself at `/_emulator/ui`,
 * same-origin with the control plane, plus the two operator routes only it needs:
 * the v1 typed-turn relay (the edge's `POST /chat` sets no CORS headers, spec 4.6), and the
 * lists the public API has no route for (sessions; jobs and workflow executions). Everything else the page shows
 * comes from the public API and the existing operator routes.
 */
import type { OutputOf } from '../../contract/operation.js';
import { ApiError } from '../../server/api-error.js';
import { implement } from '../http/router.js';
import { favicon, jobs, ui, uiChat, uiScript } from '../../contract/operations/operator.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { edgeHttpUrl, trimTrailingSlashes } from '../../contract/edge/url.js';
import type { App, EmulatorContext } from '../context.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { executionView, type ExecutionRow } from '../inference/workflows/store.js';
import { isLoopbackHost } from '../generations/media-source.js';
import { playgroundCredentials } from './credentials.js';
import { playgroundHtml } from './page.js';
import { jobSql } from '../inference/jobs/sql.js';
import { workflowSql } from '../inference/workflows/sql.js';

/** Built by `npm run build` (scripts/build-browser.js), shipped in the package. */
const BUNDLE = new URL('../../../dist/ui/playground.js', import.meta.url);

export function registerPlayground(app: App, ctx: EmulatorContext): void {
  let bundle: Promise<Buffer> | undefined;
  implement(app, ctx, ui, ({ c }) => {
    // The page carries credentials: only for a page loaded on loopback, by Host (no rebound
    // DNS name) and by the peer's address (a LAN client of an emulator started with
    // --host 0.0.0.0 can claim `Host: localhost`, but not a loopback source address).
    if (!loopbackRequest(c.req.header('host')) || !loopbackPeer(c.env as PeerEnv | undefined)) {
      throw new ApiError(403, 'forbidden', {
        message:
          'the playground is served on loopback only: open it at http://127.0.0.1:<port>/_emulator/ui',
      });
    }
    c.header('cache-control', 'no-store');
    c.header(
      'content-security-policy',
      "default-src 'self'; media-src 'self' blob:; worker-src blob:; script-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: http: https:; connect-src 'self' ws: wss: http: https:",
    );
    c.header('x-frame-options', 'DENY');
    return c.html(playgroundHtml(playgroundCredentials(ctx)));
  });
  implement(app, ctx, uiScript, async ({ c }) => {
    try {
      const js = await (bundle ??= readFile(BUNDLE));
      return c.body(new Uint8Array(js), 200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-cache',
      });
    } catch {
      bundle = undefined;
      throw new ApiError(503, 'not_built', {
        message: 'the playground is built by `npm run build` (dist/ui/playground.js is missing)',
      });
    }
  });

  // The icon (fixtures/favicon.ico, made by scripts/make-favicon.js): the page links it, and
  // a browser asks for /favicon.ico on any page of the emulator it opens.
  let icon: Promise<Buffer> | undefined;
  implement(app, ctx, favicon, async ({ c }) => {
    const bytes = await (icon ??= readFile(join(ctx.fixturesDir, 'favicon.ico')));
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': 'image/x-icon',
      'cache-control': 'public, max-age=86400',
    });
  });

  // v1 typed turns for the page: forwards { text } to the edge's POST /chat, only for a
  // connect_url of one of this emulator's boxes (never an open proxy).
  implement(app, ctx, uiChat, async ({ body, c }) => {
    const { connect_url: url, session_token: token, text } = body;
    const boxes = sessionRuntime(ctx).fleet.list();
    if (!boxes.some((b) => b.baseUrl === trimTrailingSlashes(url))) {
      throw new ApiError(400, 'invalid_request', {
        message: 'not a box of this emulator',
        detail: 'connect_url: not a box of this emulator',
      });
    }
    const res = await fetch(edgeHttpUrl(url, '/chat', token), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    return c.body(await res.text(), res.status as 200, {
      'content-type': res.headers.get('content-type') ?? 'application/json',
    });
  });

  // The session list is the operator route `GET /_emulator/sessions` (sessions/operator-routes.ts).

  // The inference family's jobs and workflow executions (node by node), every organisation:
  // the public routes read one job or execution by id, with an inference key.
  implement(app, ctx, jobs, () => {
    // The SELECT's columns are the row schema's fields (SQLite rows come back untyped).
    type JobRow = OutputOf<typeof jobs>['jobs'][number];
    const rows = jobSql(ctx.db).listRecentJobs.all() as JobRow[];
    const executions = workflowSql(ctx.db).listRecentExecutions.all() as ExecutionRow[];
    return {
      jobs: rows.map((j) => ({
        ...j,
        error: typeof j.error === 'string' ? (JSON.parse(j.error) as unknown) : j.error,
      })),
      executions: executions.map((e) => executionView(e)),
    };
  });
}

/** What @hono/node-server passes as `c.env`: the Node request, whose socket has the peer. */
type PeerEnv = { incoming?: { socket?: { remoteAddress?: string } } };

function loopbackPeer(env: PeerEnv | undefined): boolean {
  const addr = env?.incoming?.socket?.remoteAddress;
  if (!addr) return false;
  return isLoopbackHost(addr.replace(/^::ffff:/i, ''));
}

function loopbackRequest(host: string | undefined): boolean {
  try {
    return host !== undefined && isLoopbackHost(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
