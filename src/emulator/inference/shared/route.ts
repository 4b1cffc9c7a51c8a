import type { Context } from 'hono';
import type { z } from 'zod';
import type { AnyOperation, Operation, Responses } from '../../../contract/operation.js';
import { toRouterPath } from '../../../contract/operation.js';
import type { Scope } from '../../../contract/scopes.js';
import {
  bind,
  type BindOptions,
  type Family,
  type OpHandler,
  type Routes,
} from '../../../server/binder.js';
import type { App } from '../../context.js';
import { classify, type RequestClass } from '../rate-limit/limiter.js';
import type { InferenceServices } from '../services.js';
import { authenticateInference, type InferenceCaller, type InferenceScope } from './caller.js';
import { errorResponse, InferenceError, invalid, toInferenceError } from './errors.js';
import { INTERNAL_HEADER, internalCaller } from './internal.js';
import { issueMessage } from './issues.js';
import type { UsageNote } from './usage.js';

/** An inference handler's caller: who, and what the request used (recorded when the answer is sent). */
export interface InferenceCall {
  caller: InferenceCaller;
  /** Tokens, audio seconds, images; the handler fills it. */
  usage: UsageNote;
  cls: RequestClass;
  /** When the plan's limiter admitted it (NaN for the emulator's own calls). */
  admittedAt: number;
}

export { errorResponse } from './errors.js';

const CALL = 'inferenceCall';

/** The first issue as the family says it: `field: reason`, `param` naming the field (spec 7). */
function refuse(err: z.ZodError, value: unknown): InferenceError {
  const issue = err.issues[0]!;
  const param = issue.path.length ? issue.path.join('.') : undefined;
  return invalid(param ? `${param}: ${issueMessage(issue, value)}` : issue.message, param);
}

/**
 * The inference family as a family of the binder (server/binder.ts): the inference key
 * (spec 5.2) and its scope, admitted under the organisation's plan rate (spec 8) before
 * anything is read; an empty JSON body refused; every failure answered in the inference
 * error format (spec 7), never the control plane's; usage recorded with the answer.
 */
function inferenceFamily(svc: InferenceServices): Family<InferenceCall> {
  return {
    auth(c: Context, op: AnyOperation): InferenceCall {
      const scope = (op.auth as { anyOf: Scope[] }).anyOf[0] as Scope & InferenceScope;
      const internal = internalCaller(svc, c.req.header(INTERNAL_HEADER));
      const caller = internal ?? authenticateInference(svc.ctx, c, scope);
      const cls = classify(op.method.toUpperCase(), c.req.path);
      const call: InferenceCall = { caller, usage: { deferred: false }, cls, admittedAt: NaN };
      c.set(CALL, call);
      if (!internal) call.admittedAt = svc.limiter.admit(caller.orgId, caller.plan, cls);
      return call;
    },
    invalid: (where, err, value) =>
      where === 'params'
        ? new InferenceError(404, 'not_found', refuse(err, value).message)
        : refuse(err, value),
    invalidJson: (message) => new InferenceError(400, 'invalid_json', message),
    emptyBody: () => {
      throw new InferenceError(400, 'invalid_json', 'request body is empty; send a JSON object');
    },
    async around(c, op, next) {
      let status = 500;
      try {
        const res = await next(c);
        status = res.status;
        return res;
      } catch (e) {
        const err = toInferenceError(e);
        if (err) {
          status = err.status;
          const call = c.get(CALL) as InferenceCall | undefined;
          // Refused before any model ran (4xx from validation or model lookup): the job
          // submission is given back (docs/fidelity.md "Rejected job submissions").
          if (call && call.cls === 'jobs' && err.status >= 400 && err.status < 500)
            svc.limiter.refund(call.caller.orgId, call.cls, call.admittedAt);
          return errorResponse(err);
        }
        svc.ctx.log(
          `internal error on ${op.method.toUpperCase()} ${c.req.path}: ${(e as Error).stack ?? String(e)}`,
        );
        return errorResponse(
          new InferenceError(500, 'internal_error', 'unexpected error; see the emulator log'),
        );
      } finally {
        // A request refused before it names an organisation (bad key) is nobody's usage.
        const call = c.get(CALL) as InferenceCall | undefined;
        if (call)
          svc.usage.record(
            call.caller,
            call.cls,
            `${op.method.toUpperCase()} ${c.req.routePath}`,
            status,
            call.usage,
          );
      }
    },
  };
}

/**
 * Register one inference operation of the contract (`src/contract/operations/inference.ts`)
 * through the binder, in the inference family's terms (`inferenceFamily`).
 */
export function implementInference<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(
  app: App,
  svc: InferenceServices,
  op: Operation<P, Q, B, R>,
  handler: OpHandler<P, Q, B, R, InferenceCall>,
  options?: BindOptions,
): void {
  if (typeof op.auth === 'string' || !op.auth.anyOf[0])
    throw new Error(`${op.id}: an inference route needs a scope`);
  svc.routes.add(op.method, toRouterPath(op.path));
  bind(app as unknown as Routes, inferenceFamily(svc), op, handler, options);
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
