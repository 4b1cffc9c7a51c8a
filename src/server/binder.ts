/**
 * The one operation binder (docs/architecture.md "Routes"): every server of ours (the
 * control plane, the inference family, an edge box) registers a contract operation here.
 * The binder checks the caller (the family's `auth`), reads the body within its limit,
 * parses the JSON and validates params, query and body with the operation's schemas before
 * the handler runs; the handler returns the operation's success body (sent with its first
 * 2xx) or a Reply/Response. Refusals are the family's errors, in the family's envelope.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { Limits } from '../contract/limits.js';
import {
  toRouterPath,
  type AnyOperation,
  type Operation,
  type OutputOf,
  type Responses,
} from '../contract/operation.js';
import { parseJsonBytes, readBodyLimited } from './body.js';

export interface OpRequest<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  A = unknown,
> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  /** The caller as the family's `auth` found it (the control plane: null on public operations). */
  auth: A;
  /** Raw request bytes (operations with `rawBody`). */
  raw: Uint8Array;
  c: Context;
}

/**
 * A reply with an explicit status (201 vs 200, 202, 204...) or headers. Its body is
 * checked like a bare one: one of the operation's success bodies (`T`).
 */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body?: T,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function reply(status: number): Reply<undefined>;
export function reply<T>(status: number, body: T, headers?: Record<string, string>): Reply<T>;
export function reply<T>(status: number, body?: T, headers?: Record<string, string>): Reply<T> {
  return new Reply(status, body, headers);
}

/**
 * A handler's answer: a success body of its operation (sent with its first 2xx), a Reply of
 * one (another 2xx, or headers), or a Response where the binder cannot express the answer
 * (a stream, binary media).
 */
export type OpResult<T = unknown> = T | Reply<T> | Response;

/**
 * The success body a handler returns: OutputOf the operation; `unknown` while the
 * operation's responses are not written as literals (a helper that widens them to `Responses`).
 */
export type SuccessOf<O, R extends Responses> = number extends keyof R ? unknown : OutputOf<O>;

export type OpHandler<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  R extends Responses,
  A,
> = (
  req: OpRequest<P, Q, B, A>,
) =>
  | OpResult<SuccessOf<Operation<P, Q, B, R>, R>>
  | Promise<OpResult<SuccessOf<Operation<P, Q, B, R>, R>>>;

/** What one family of operations decides: who may call, and its refusals in its own envelope. */
export interface Family<A> {
  /** The caller of `op`, before anything else of the request is read; throws the family's 401/403. */
  auth(c: Context, op: AnyOperation): A | Promise<A>;
  /** The refusal of a path parameter (a 404), a query or a body (400s) the operation's schema rejects. */
  invalid(where: 'params' | 'query' | 'body', err: z.ZodError, input: unknown): Error;
  /** The 400 `invalid_json` (not UTF-8, not JSON). */
  invalidJson(message: string): Error;
  /** The value validated for an empty JSON body (the control plane reads `{}`); may throw instead. */
  emptyBody(): unknown;
  /** Body bytes read at most where the operation names no limit (default Limits.jsonBodyBytes). */
  maxBodyBytes?: number;
  /** Runs around each request (the inference family: rate limit, usage, its own error answers). */
  around?(c: Context, op: AnyOperation, next: (c: Context) => Promise<Response>): Promise<Response>;
}

export interface BindOptions {
  /**
   * Sees the parsed JSON before validation; a Response answers the request (the inference
   * family passes a body meant for an upstream model on unchanged: the upstream judges it).
   */
  before?: (json: unknown, c: Context) => Response | undefined | Promise<Response | undefined>;
}

/** What the binder needs of a Hono app (any Env). */
export interface Routes {
  on(method: string, path: string, handler: (c: Context) => Promise<Response>): unknown;
}

function firstSuccess(op: AnyOperation): number {
  const codes = Object.keys(op.responses)
    .map(Number)
    .filter((s) => s >= 200 && s < 300);
  return codes.sort((a, b) => a - b)[0] ?? 200;
}

const NO_BYTES: Uint8Array = new Uint8Array();

/** Register `handler` for `op` on `app`, in `family`'s terms. Everything per operation is computed here, once. */
export function bind<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
  A,
>(
  app: Routes,
  family: Family<A>,
  op: Operation<P, Q, B, R>,
  handler: OpHandler<P, Q, B, R, A>,
  options: BindOptions = {},
): void {
  const any = op as unknown as AnyOperation;
  const maxBytes = op.rawBody?.maxBytes ?? family.maxBodyBytes ?? Limits.jsonBodyBytes;
  const success = firstSuccess(any);
  const { params: P, query: Q, body: B, rawBody } = op;
  const before = options.before;
  const run = async (c: Context): Promise<Response> => {
    const pending = family.auth(c, any);
    const auth = pending instanceof Promise ? await pending : pending;
    let params: unknown = c.req.param();
    if (P) {
      const r = P.safeParse(params);
      if (!r.success) throw family.invalid('params', r.error, params);
      params = r.data;
    }
    let query: unknown = c.req.query();
    if (Q) {
      const r = Q.safeParse(query);
      if (!r.success) throw family.invalid('query', r.error, query);
      query = r.data;
    }
    let body: unknown;
    let raw = NO_BYTES;
    if (rawBody) {
      raw = await readBodyLimited(c, maxBytes);
    } else if (B) {
      let json = parseJsonBytes(await readBodyLimited(c, maxBytes), family.invalidJson);
      if (json === undefined) json = family.emptyBody();
      if (before) {
        const passed = await before(json, c);
        if (passed) return passed;
      }
      const r = B.safeParse(json);
      if (!r.success) throw family.invalid('body', r.error, json);
      body = r.data;
    }
    const result = await handler({
      params: params as z.output<P>,
      query: query as z.output<Q>,
      body: body as z.output<B>,
      auth,
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
  };
  const around = family.around;
  app.on(op.method.toUpperCase(), toRouterPath(op.path), around ? (c) => around(c, any, run) : run);
}
