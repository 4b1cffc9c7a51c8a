import type { z } from 'zod';
import type { Operation, Responses } from '../../contract/operation.js';
import type { OpResult, SuccessOf } from '../../server/binder.js';
import type { App, EmulatorContext } from '../context.js';
import { implement, type OpRequest } from '../http/router.js';

/**
 * Register one handler for both route shapes of spec 4 (token-relative and explicit
 * `/workspaces/{wsId}/...`). The handler sees `wsId` only on the explicit shape.
 */
export function implementBoth<
  S extends z.ZodObject,
  W extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(
  app: App,
  ctx: EmulatorContext,
  ops: readonly [Operation<S, Q, B, R>, Operation<W, Q, B>],
  handler: (
    req: OpRequest<S, Q, B>,
    wsId: string | undefined,
  ) =>
    | OpResult<SuccessOf<Operation<S, Q, B, R>, R>>
    | Promise<OpResult<SuccessOf<Operation<S, Q, B, R>, R>>>,
): void {
  implement(app, ctx, ops[0], (req) => handler(req, undefined));
  implement(app, ctx, ops[1], (req) => {
    const { wsId, ...rest } = req.params as { wsId: string } & Record<string, unknown>;
    return handler({ ...req, params: rest } as unknown as OpRequest<S, Q, B>, wsId);
  });
}
