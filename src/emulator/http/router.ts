import type { Context } from 'hono';
import type { z } from 'zod';
import { echo, echoList } from '../../contract/echo.js';
import { Limits } from '../../contract/limits.js';
import { toRouterPath, type Operation } from '../../contract/operation.js';
import { authenticate, type AuthContext } from '../auth/authenticate.js';
import type { App, EmulatorContext } from '../context.js';
import { unixSeconds } from '../clock.js';
import { ApiError } from './api-error.js';
import { parseJsonBytes, readBodyLimited, readJsonBody } from './body.js';

export interface OpRequest<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** The caller; null only on public operations. */
  auth: AuthContext;
  /** Raw request bytes (operations with `rawBody`). */
  raw: Uint8Array;
  c: Context;
}

/** A handler's result: a Response as is, or a JSON body sent with the operation's first 2xx. */
export type OpResult =
  | Response
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | object;

export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A reply with an explicit status (201 vs 200, 202, 204...). */
export const reply = (status: number, body?: unknown, headers?: Record<string, string>) =>
  new Reply(status, body, headers);

/** `path: message` of the first issue; unknown keys named a few at a time (issue 7 item 6). */
export function zodDetail(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length ? issue.path.map((p) => echo(String(p))).join('.') : '(body)';
  if (issue.code === 'unrecognized_keys') {
    return `${path}: Unrecognized key${issue.keys.length === 1 ? '' : 's'}: ${echoList(issue.keys)}`;
  }
  return `${path}: ${issue.message}`;
}

/** The JSON body reader of `implement` (readJsonBody, http/body.ts, with the control plane's envelope); the few hand-written operator routes use it too. */
const invalidJson = (message: string) => new ApiError(400, 'invalid_json', { message });
export const readJson = (c: Context, maxBytes: number): Promise<unknown> =>
  readJsonBody(c, maxBytes, invalidJson);

/** The bytes of an operation with `rawBody` that carries a JSON document, parsed with the same error. */
export const parseJson = (raw: Uint8Array): unknown => parseJsonBytes(raw, invalidJson);

function firstSuccess(op: Operation<z.ZodObject, z.ZodObject, z.ZodType>): number {
  const codes = Object.keys(op.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300);
  return codes.sort((a, b) => a - b)[0] ?? 200;
}

/**
 * Register the handler of one contract operation: auth (scopes, key kinds, Origin),
 * body size limit, JSON parsing, zod validation of params/query/body, and the reply.
 * Every failure is an ApiError rendered once by the app's onError.
 */
export function implement<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType>(
  app: App,
  ctx: EmulatorContext,
  op: Operation<P, Q, B>,
  handler: (req: OpRequest<P, Q, B>) => OpResult | Promise<OpResult>,
  /** A credential check of its own, before any validation (the box API's box secret). */
  guard?: (c: Context) => void,
): void {
  const maxBytes = op.rawBody?.maxBytes ?? Limits.jsonBodyBytes;
  const success = firstSuccess(op as never);
  app.on(op.method.toUpperCase(), toRouterPath(op.path), async (c) => {
    // `operator` is checked by the guard on /_emulator/* (operator/guard.ts), before any route.
    const auth =
      op.auth === 'public' || op.auth === 'operator'
        ? null
        : authenticate(ctx.db, c, op.auth, unixSeconds(ctx.clock));
    c.set('auth', auth);
    guard?.(c);

    let params: unknown = c.req.param();
    if (op.params) {
      const r = op.params.safeParse(params);
      if (!r.success)
        throw new ApiError(404, 'not_found', {
          message: 'no such resource',
          detail: zodDetail(r.error),
        });
      params = r.data;
    }
    let query: unknown = c.req.query();
    if (op.query) {
      const r = op.query.safeParse(query);
      if (!r.success)
        throw new ApiError(400, 'invalid_request', {
          message: 'invalid query',
          detail: zodDetail(r.error),
        });
      query = r.data;
    }
    let body: unknown;
    let raw: Uint8Array = new Uint8Array();
    if (op.rawBody) {
      raw = await readBodyLimited(c, maxBytes);
    } else if (op.body) {
      const parsed = await readJson(c, maxBytes);
      const r = op.body.safeParse(parsed ?? {});
      if (!r.success) {
        throw new ApiError(400, 'invalid_request', {
          message: 'invalid request body',
          detail: zodDetail(r.error),
        });
      }
      body = r.data;
    }

    const result = await handler({
      params: params as z.output<P>,
      query: query as z.output<Q>,
      body: body as z.output<B>,
      auth: auth as AuthContext,
      raw,
      c,
    });
    if (result instanceof Response) return result;
    if (result instanceof Reply) {
      if (result.status === 204 || result.body === undefined)
        return c.body(null, result.status as 204, result.headers);
      return c.json(result.body as object, result.status as 200, result.headers);
    }
    return c.json(result as object, success as 200);
  });
}
