import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { boundText } from '../../contract/echo.js';
import { toRouterPath } from '../../contract/operation.js';
import { operations } from '../../contract/operations/index.js';
import { ApiError } from './api-error.js';

function pathPattern(path: string): RegExp {
  return new RegExp('^' + toRouterPath(path).replace(/:[^/]+/g, '[^/]+') + '/?$');
}

const known = operations.map((o) => ({ re: pathPattern(o.path), method: o.method.toUpperCase() }));

/** 404 for an unknown path; 405 (with `Allow`) for a known path with another method. */
export function notFoundHandler(c: Context): Response {
  const path = new URL(c.req.url).pathname;
  const methods = known.filter((k) => k.re.test(path)).map((k) => k.method);
  if (methods.length > 0) {
    return c.json({ error: 'method_not_allowed', message: boundText(`${c.req.method} not allowed on ${path}`) }, 405, {
      Allow: [...new Set(methods)].join(', '),
    });
  }
  return c.json({ error: 'not_found', message: boundText(`no route ${c.req.method} ${path}`) }, 404);
}

/** The one place errors become responses (STYLE: typed errors converted in one place). */
export function errorHandler(log: (line: string) => void) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) {
      return c.json(err.toBody(), err.status as 400, err.opts.headers);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      return c.json({ error: status === 413 ? 'payload_too_large' : 'invalid_request', message: boundText(err.message) }, status);
    }
    log(`internal error on ${c.req.method} ${c.req.path}: ${err.stack ?? err.message}`);
    return c.json({ error: 'internal_error', message: 'unexpected error; see the emulator log' }, 500);
  };
}
