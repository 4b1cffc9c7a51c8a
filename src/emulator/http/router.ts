import type { Context } from 'hono';
import type { z } from 'zod';
import type { AnyOperation, Operation, Responses } from '../../contract/operation.js';
import { apiRefusals } from '../../server/api-error.js';
import {
  bind,
  type Family,
  type OpHandler,
  type OpRequest as BoundRequest,
  type Routes,
} from '../../server/binder.js';
import { parseJsonBytes, readJsonBody } from '../../server/body.js';
import { authenticate, type AuthContext } from '../auth/authenticate.js';
import type { App, EmulatorContext } from '../context.js';
import { unixSeconds } from '../clock.js';

export { reply, Reply, type OpResult } from '../../server/binder.js';
export { zodDetail } from '../../server/api-error.js';

/** A control-plane handler's request: the caller is the key's AuthContext (null on public operations). */
export type OpRequest<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
> = BoundRequest<P, Q, B, AuthContext>;

/** The JSON body reader of the control plane's envelope; the few hand-written operator routes use it too. */
export const readJson = (c: Context, maxBytes: number): Promise<unknown> =>
  readJsonBody(c, maxBytes, apiRefusals.invalidJson);

/** The bytes of an operation with `rawBody` that carries a JSON document, parsed with the same error. */
export const parseJson = (raw: Uint8Array): unknown => parseJsonBytes(raw, apiRefusals.invalidJson);

/**
 * The control plane as a family of the binder (server/binder.ts): key auth (scopes, key
 * kinds, Origin; `operator` is checked by the guard on /_emulator/*, operator/guard.ts,
 * before any route), the `{ error, message, detail }` envelope, every failure an ApiError
 * rendered once by the app's onError.
 */
function controlPlane(ctx: EmulatorContext): Family<AuthContext> {
  return {
    ...apiRefusals,
    auth: (c: Context, op: AnyOperation) =>
      (op.auth === 'public' || op.auth === 'operator'
        ? null
        : authenticate(ctx.db, c, op.auth, unixSeconds(ctx.clock))) as AuthContext,
  };
}

/** Register the handler of one control-plane operation (see `bind`). */
export function implement<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(
  app: App,
  ctx: EmulatorContext,
  op: Operation<P, Q, B, R>,
  handler: OpHandler<P, Q, B, R, AuthContext>,
  /** A credential check of its own, after the key's and before any validation (the box API's box secret). */
  guard?: (c: Context) => void,
): void {
  let family = controlPlane(ctx);
  if (guard) {
    const { auth } = family;
    family = {
      ...family,
      auth: (c, o) => {
        const a = auth(c, o);
        guard(c);
        return a;
      },
    };
  }
  bind(app as unknown as Routes, family, op, handler);
}
