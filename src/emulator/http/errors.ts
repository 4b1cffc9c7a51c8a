import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { boundText } from '../../contract/echo.js';
import { toRouterPath } from '../../contract/operation.js';
import { operations } from '../../contract/operations/index.js';
import { ApiError } from '../../server/api-error.js';

/**
 * The methods each known path answers, for the 405's `Allow` (docs/architecture.md "Errors
 * decided here"): the control plane's from the operation table, the inference family's
 * as its routes register (inference/shared/route.ts).
 */
export class KnownRoutes {
  private readonly routes: { re: RegExp; method: string }[] = [];

  /** `path` in either form: `{param}` (the operation table) or `:param` (the router). */
  add(method: string, path: string): void {
    const re = new RegExp('^' + toRouterPath(path).replace(/:[^/]+/g, '[^/]+') + '/?$');
    this.routes.push({ re, method: method.toUpperCase() });
  }

  /** The methods a request path answers (empty: an unknown path, 404). */
  allowed(path: string): string[] {
    return [...new Set(this.routes.filter((r) => r.re.test(path)).map((r) => r.method))];
  }
}

const known = new KnownRoutes();
for (const o of operations) known.add(o.method, o.path);

/** The 405 text (both error formats say the same). */
export const methodNotAllowedMessage = (method: string, path: string) =>
  boundText(`${method} not allowed on ${path}`);

/** 404 for an unknown path; 405 (with `Allow`) for a known path with another method. */
export function notFoundHandler(c: Context): Response {
  const path = new URL(c.req.url).pathname;
  const methods = known.allowed(path);
  if (methods.length > 0) {
    return c.json(
      { error: 'method_not_allowed', message: methodNotAllowedMessage(c.req.method, path) },
      405,
      {
        Allow: methods.join(', '),
      },
    );
  }
  return c.json(
    { error: 'not_found', message: boundText(`no route ${c.req.method} ${path}`) },
    404,
  );
}

/** The one place errors become responses (STYLE: typed errors converted in one place). */
export function errorHandler(log: (line: string) => void) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) {
      return c.json(err.toBody(), err.status as 400, err.opts.headers);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      return c.json(
        {
          error: status === 413 ? 'payload_too_large' : 'invalid_request',
          message: boundText(err.message),
        },
        status,
      );
    }
    log(`internal error on ${c.req.method} ${c.req.path}: ${err.stack ?? err.message}`);
    return c.json(
      { error: 'internal_error', message: 'unexpected error; see the emulator log' },
      500,
    );
  };
}
