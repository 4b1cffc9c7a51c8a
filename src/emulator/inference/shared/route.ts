import type { Context } from 'hono';
import type { z } from 'zod';
import { Limits } from '../../../contract/limits.js';
import { toRouterPath, type AnyOperation } from '../../../contract/operation.js';
import type { Scope } from '../../../contract/scopes.js';
import type { App } from '../../context.js';
import { readJsonBody } from '../../../server/body.js';
import { classify } from '../rate-limit/limiter.js';
import type { InferenceServices } from '../services.js';
import { authenticateInference, type InferenceCaller, type InferenceScope } from './caller.js';
import { errorResponse, InferenceError, invalid, toInferenceError } from './errors.js';
import { issueMessage } from './issues.js';
import type { UsageNote } from './usage.js';
import { INTERNAL_HEADER, internalCaller } from './internal.js';

export interface InferenceRequest {
  c: Context;
  caller: InferenceCaller;
  /** What this request used (tokens, audio seconds, images); recorded when the answer is sent. */
  usage: UsageNote;
}

export type InferenceHandler = (r: InferenceRequest) => Response | Promise<Response>;

export { errorResponse } from './errors.js';

/**
 * Register the handler of one inference operation of the contract
 * (`src/contract/operations/inference.ts`: method, path, scope): authenticate the inference key (spec 5.2) and its scope,
 * admit it under the organisation's plan rate (spec 8), run the handler, record usage, and
 * answer every failure in the inference error format (spec 7), never the control plane's.
 */
export function inferenceRoute(
  app: App,
  svc: InferenceServices,
  op: AnyOperation,
  handler: InferenceHandler,
): void {
  const method = op.method.toUpperCase();
  const path = toRouterPath(op.path);
  const scope = (typeof op.auth === 'string' ? undefined : op.auth.anyOf[0]) as
    | (Scope & InferenceScope)
    | undefined;
  if (!scope) throw new Error(`${op.id}: an inference route needs a scope`);
  svc.routes.add(method, path);
  app.on(method, path, async (c) => {
    let caller: InferenceCaller | null = null;
    const usage: UsageNote = { deferred: false };
    const cls = classify(method, c.req.path);
    let status = 500;
    let admittedAt = NaN;
    try {
      const internal = internalCaller(svc, c.req.header(INTERNAL_HEADER));
      caller = internal ?? authenticateInference(svc.ctx, c, scope);
      if (!internal) admittedAt = svc.limiter.admit(caller.orgId, caller.plan, cls);
      const res = await handler({ c, caller, usage });
      status = res.status;
      return res;
    } catch (e) {
      const err = toInferenceError(e);
      if (err) {
        status = err.status;
        // Refused before any model ran (4xx from validation or model lookup): the job
        // submission is given back (docs/fidelity.md "Rejected job submissions").
        if (caller && cls === 'jobs' && err.status >= 400 && err.status < 500)
          svc.limiter.refund(caller.orgId, cls, admittedAt);
        return errorResponse(err);
      }
      svc.ctx.log(`internal error on ${method} ${c.req.path}: ${(e as Error).stack ?? String(e)}`);
      return errorResponse(
        new InferenceError(500, 'internal_error', 'unexpected error; see the emulator log'),
      );
    } finally {
      // A request refused before it names an organisation (bad key) is nobody's usage.
      if (caller) svc.usage.record(caller, cls, `${method} ${c.req.routePath}`, status, usage);
    }
  });
}

/** A JSON body (1 MiB unless said), parsed; bad JSON is 400 `invalid_json`. */
export async function readJson(
  c: Context,
  maxBytes: number = Limits.jsonBodyBytes,
): Promise<unknown> {
  const v = await readJsonBody(
    c,
    maxBytes,
    (message) => new InferenceError(400, 'invalid_json', message),
  );
  if (v === undefined)
    throw new InferenceError(400, 'invalid_json', 'request body is empty; send a JSON object');
  return v;
}

/** Validate with a zod schema; the first issue becomes 400 `invalid_request` naming the field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const param = issue.path.length ? issue.path.join('.') : undefined;
  throw invalid(param ? `${param}: ${issueMessage(issue, value)}` : issue.message, param);
}

export async function jsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  maxBytes?: number,
): Promise<z.output<S>> {
  return validate(schema, await readJson(c, maxBytes));
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A path parameter of the matched route (always present there). */
export const param = (c: Context, name: string): string => c.req.param(name) ?? '';
