/**
 * The guard of the operator routes (`/_emulator/*`, ours; docs/security.md). A web page the
 * developer visits must not read or change the emulator through them:
 *
 * - every route but `/_emulator/health` (and the playground page `/_emulator/ui`, which a
 *   browser navigates to and which carries the token it was given at load) needs the
 *   operator credential, `Authorization: Bearer <token>`: the operator token
 *   (`op_<hex>`, printed at start) or one of the emulator's own keys (the bootstrap secret
 *   key or dashboard key), else 401;
 * - a write (any method but GET/HEAD) from a foreign `Origin` is 403 `origin_not_allowed`
 *   (no Origin, a server or the CLI, passes; the emulator's own origin passes), and one
 *   without `Content-Type: application/json` is 415: a cross-origin `text/plain` or form
 *   POST, which a browser sends without a preflight, never changes anything;
 * - no CORS header is ever sent here (app.ts answers CORS on /api/* only).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { hostName, HostPolicy } from '../../contract/hosts.js';
import { bearer } from '../auth/authenticate.js';
import { findKey } from '../auth/credentials.js';
import type { BootstrapKeys } from '../bootstrap/bootstrap.js';
import type { AppEnv, EmulatorContext } from '../context.js';
import { getSetting } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import { staleTokenHint } from './operator-token.js';
import { sameSecret } from '../../server/safe-equal.js';

/** The shape of an operator token (`op_` and 48 hex digits). */
const OP_TOKEN = /^op_[0-9a-f]{48}$/;
/** Operator paths open without a credential. */
const OPEN = /^\/_emulator\/health\/?$/;
/** The playground page and its assets: navigated to, so no header can be sent (GET/HEAD only). */
const PAGE = /^\/_emulator\/ui(\/app\.js)?$/;

/** True when `raw` is this emulator's operator token, or one of its bootstrap keys still active. */
export function isOperatorCredential(ctx: EmulatorContext, raw: string): boolean {
  if (sameSecret(raw, ctx.operatorToken)) return true;
  const stored = getSetting(ctx.db, 'bootstrap');
  if (!stored) return false;
  const keys = JSON.parse(stored) as BootstrapKeys;
  if (!sameSecret(raw, keys.secretKey) && !sameSecret(raw, keys.dashboardKey)) return false;
  return findKey(ctx.db, raw)?.status === 'active';
}

const unauthorized = (message: string) =>
  new ApiError(401, 'unauthorized', {
    message: `${message}: operator routes take Authorization: Bearer <operator token or the emulator's secret key> (both printed at start; docs/security.md)`,
  });

export function operatorGuard(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  let own: ((origin: string) => boolean) | undefined;
  const ownOrigin = (origin: string) => {
    own ??= ownOrigins(ctx);
    return own(origin);
  };
  return async (c, next) => {
    const method = c.req.method;
    const read = method === 'GET' || method === 'HEAD';
    if (OPEN.test(c.req.path) || (read && PAGE.test(c.req.path))) {
      await next();
      // The page holds the operator token: no foreign page may frame it (clickjacking).
      if (PAGE.test(c.req.path)) trySet(c, 'X-Frame-Options', 'DENY');
      return;
    }
    const origin = c.req.header('origin');
    if (!read && origin !== undefined && !ownOrigin(origin)) {
      throw new ApiError(403, 'origin_not_allowed', {
        message: `operator writes are refused from a foreign Origin (${origin}); call them from the CLI, a server, or the emulator's own pages`,
      });
    }
    const raw = bearer(c);
    if (raw === null) throw unauthorized('missing operator credential');
    if (raw === '' || !isOperatorCredential(ctx, raw))
      throw unauthorized(
        OP_TOKEN.test(raw)
          ? staleTokenHint(ctx.options)
          : 'not an operator credential of this emulator',
      );
    if (!read && !isJson(c.req.header('content-type'))) {
      throw new ApiError(415, 'unsupported_media_type', {
        message:
          'operator writes take Content-Type: application/json (send {} when there is nothing to say)',
      });
    }
    await next();
  };
}

const isJson = (type: string | undefined) =>
  type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';

/** The emulator's own origins: http, a Host it serves, and its own port. */
function ownOrigins(ctx: EmulatorContext): (origin: string) => boolean {
  const base = new URL(String(ctx.options.baseUrl));
  const policy = new HostPolicy(ctx.options.allowedHosts ?? [], [base.hostname, ctx.options.host]);
  return (origin) => {
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return false; // "null" (a sandboxed frame, file://) is nobody's own
    }
    return (
      u.protocol === base.protocol && u.port === base.port && policy.allows(hostName(u.hostname))
    );
  };
}

function trySet(c: Context<AppEnv>, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    // a response with immutable headers (a proxied fetch) keeps its own
  }
}
