import type { z } from 'zod';
import type { ScopeRequirement } from './scopes.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call an operation.
 * - `public`: no credential (gallery, JWKS).
 * - `operator`: the emulator's operator credential (`Authorization: Bearer <operator token or
 *   the emulator's secret key>`), checked by the guard on `/_emulator/*` (docs/security.md).
 * - a scope requirement: any key kind holding one of the scopes (publishable keys also pass
 *   the Origin check).
 */
export type OperationAuth = 'public' | 'operator' | ScopeRequirement;

/**
 * Which surface an operation belongs to; it picks the error envelope and the server:
 * - `control`: `/api/v1`, the control-plane envelope `{ error, message, detail }` (default);
 * - `inference`: the inference family, `{ error: { code, message, type } }` (spec 7);
 * - `operator`: the emulator's own `/_emulator/*` routes (ours, control-plane envelope);
 * - `internal`: the box API `/_internal/*` (the emulator and its edge boxes only);
 * - `edge`: served by an edge box (its base URL is the session's `ws_url` host).
 */
export type OperationFamily = 'control' | 'inference' | 'operator' | 'internal' | 'edge';

export interface ResponseSpec {
  description: string;
  /** JSON body schema; omit for an empty body (204) or a non-JSON body. */
  schema?: z.ZodType;
  /** Non-JSON media type (image/png, video/mp4, ...). */
  contentType?: string;
  /**
   * The same status may answer a stream instead (compat-a `stream: true`): its media type and
   * the schema of each event's `data` (server-sent events). OutputOf ignores it: `call()`
   * reads the JSON answer; a stream is read by its own client method.
   */
  stream?: { contentType: 'text/event-stream'; schema: z.ZodType };
  /** Response headers worth documenting (Retry-After, ...). */
  headers?: Record<string, string>;
}

export interface RawBodySpec {
  /** Accepted Content-Types (checked by the route too, by magic bytes where it matters). */
  contentTypes: readonly string[];
  maxBytes: number;
}

/**
 * One operation of the service: the single source for the emulator's route, the served
 * OpenAPI document, the typed client call and the generated CLI command.
 */
export interface Operation<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  R extends Responses = Responses,
> {
  /** operationId: `<group>.<verb>`, e.g. `tokens.create`. */
  id: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/v1/tokens/{tokenId}`. */
  path: string;
  summary: string;
  description?: string;
  auth: OperationAuth;
  /** Default `control`. */
  family?: OperationFamily;
  params?: P;
  query?: Q;
  body?: B;
  /** Raw (non-JSON) request body, e.g. an image upload. */
  rawBody?: RawBodySpec;
  responses: R;
  /**
   * The generated CLI command `avatar <group> <verb>`; `false` hides it from the CLI. `verb`
   * may be two words (`queue status`): a command of a sub-group of `group`.
   */
  cli?: { group: string; verb: string; positional?: readonly string[] } | false;
}

export type Responses = Record<number, ResponseSpec>;

/** Keeps the literal types of `op` (its schemas and its responses), so InputOf/OutputOf can read them. */
export function defineOperation<
  P extends z.ZodObject,
  Q extends z.ZodObject,
  B extends z.ZodType,
  const R extends Responses,
>(op: Operation<P, Q, B, R>): Operation<P, Q, B, R> {
  return op;
}

export type AnyOperation = Operation<z.ZodObject, z.ZodObject, z.ZodType, Responses>;

type SuccessCode = 200 | 201 | 202 | 203 | 204 | 206;

/** What a caller sends: the zod *input* types of params, query and body. */
export type InputOf<O> =
  O extends Operation<infer P, infer Q, infer B, Responses>
    ? { params?: z.input<P>; query?: z.input<Q>; body?: z.input<B> }
    : never;

/**
 * What a successful call returns: the parsed JSON body of the operation's 2xx responses
 * (a union when there are several), `undefined` for an empty 2xx (204), `Uint8Array` for a
 * non-JSON body (`contentType`).
 */
export type OutputOf<O> =
  O extends Operation<z.ZodObject, z.ZodObject, z.ZodType, infer R>
    ? number extends keyof R
      ? unknown // an operation typed only as AnyOperation: its answer is not known statically
      : { [S in keyof R & SuccessCode]: BodyOf<R[S]> }[keyof R & SuccessCode]
    : never;

type BodyOf<S> = S extends { schema: infer Z extends z.ZodType }
  ? z.output<Z>
  : S extends { contentType: string }
    ? Uint8Array
    : undefined;

/** `/api/v1/tokens/{tokenId}` to `/api/v1/tokens/:tokenId` (Hono's syntax). */
export function toRouterPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** Fill a path template. Values are URI-encoded. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}

export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
