import type { Context } from 'hono';
import { ApiError, apiRefusals } from '../../server/api-error.js';
import type { Family } from '../../server/binder.js';

/**
 * A box's operations as a family of the binder (server/binder.ts): the control plane's
 * `{ error, message, detail }` envelope, and `check` as the auth (the control plane's
 * callback secret on `/_box/...`, nothing on public routes).
 */
export function boxFamily(check: (c: Context) => void): Family<null> {
  return {
    ...apiRefusals,
    auth(c) {
      check(c);
      return null;
    },
  };
}

/** The box app's one error answer: an ApiError in its envelope; anything else a logged 500. */
export function boxErrors(log: (line: string) => void) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) return c.json(err.toBody(), err.status as 400, err.opts.headers);
    log(`internal error on ${c.req.method} ${c.req.path}: ${err.stack ?? err.message}`);
    return c.json({ error: 'internal_error', message: 'unexpected error; see the box log' }, 500);
  };
}
