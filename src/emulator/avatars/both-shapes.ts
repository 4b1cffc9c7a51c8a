import type { z } from 'zod';
import type { Operation } from '../../contract/operation.js';
import type { App, EmulatorContext } from '../context.js';
import { implement, type OpRequest, type OpResult } from '../http/router.js';

/**
 * Register one handler for both route shapes of spec 4 (token-relative and explicit
 * `/workspaces/{wsId}/...`). The handler sees `wsId` only on the explicit shape.
 */
export function implementBoth<
  S extends z.ZodObject,
  W extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
>(
  app: App,
  ctx: EmulatorContext,
  ops: readonly [Operation<S, Q, B>, Operation<W, Q, B>],
  handler: (req: OpRequest<S, Q, B>, wsId: string | undefined) => OpResult | Promise<OpResult>,
): void {
  implement(app, ctx, ops[0], (req) => handler(req, undefined));
  implement(app, ctx, ops[1], (req) => {
    const { wsId, ...rest } = req.params as { wsId: string } & Record<string, unknown>;
    return handler({ ...req, params: rest } as unknown as OpRequest<S, Q, B>, wsId);
  });
}
