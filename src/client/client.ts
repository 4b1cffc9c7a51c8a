import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { fillPath, type AnyOperation, type InputOf, type OutputOf } from '../contract/operation.js';
import { operationById } from '../contract/operations/index.js';

export interface ClientOptions {
  /** e.g. `http://127.0.0.1:4780` */
  baseUrl: string;
  apiKey?: string;
  /** Sent as `Origin` (publishable keys are checked against it); connectEdge takes its own `origin`. */
  origin?: string;
  /** Keep-alive pool (benchmarks share one). */
  dispatcher?: Dispatcher;
  userAgent?: string;
}

export interface CallInput {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Raw body bytes (uploads) with their content type; `onProgress` reports bytes sent. */
  raw?: {
    bytes: Uint8Array;
    contentType: string;
    onProgress?: (sent: number, total: number) => void;
  };
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface CallResult<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or the bytes of a non-JSON body, or undefined for an empty body. */
  body: T;
}

/** An HTTP answer of 4xx/5xx, carrying the spec's envelope. */
export class ApiResponseError extends Error {
  /** The `error` code of the envelope (control-plane or inference format), suffix included (`unknown_tools_field:foo`). */
  readonly code: string;

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {
    const env = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const code =
      typeof env.error === 'string'
        ? env.error
        : env.error && typeof env.error === 'object'
          ? String((env.error as Record<string, unknown>).code)
          : `http_${status}`;
    const msg =
      typeof env.message === 'string'
        ? env.message
        : typeof env.detail === 'string'
          ? env.detail
          : '';
    super(msg ? `${code}: ${msg}` : code);
    this.name = 'ApiResponseError';
    this.code = code;
  }
}

/**
 * The body of an answer the contract cannot type statically: a call by operationId string,
 * or `send` (success or error envelope). Pass the operation object to `call` for a typed one.
 */
export type Untyped = any;

/** What `call` and `send` take beside the contract's input: raw bytes, headers, a signal. */
export type CallOptions = Omit<CallInput, 'params' | 'query' | 'body'>;

/** The input of a call of `op`: the contract's params, query and body (zod input types), plus options. */
export type CallInputOf<O extends AnyOperation> = InputOf<O> & CallOptions;

/**
 * Typed client of the whole service. Every operation of the contract is callable through
 * `call(op, input)`; the CLI uses nothing else.
 */
export class AvatarClient {
  readonly baseUrl: string;
  private readonly dispatcher: Dispatcher;

  constructor(readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000 });
  }

  /**
   * Call a contract operation; throws ApiResponseError on 4xx/5xx. With the operation object
   * the input and the answer are typed from the contract (`OutputOf<typeof op>`). An
   * operationId string (the generated CLI, `avatar api`) is not typed: its body is `Untyped`.
   */
  call<O extends AnyOperation>(op: O, input?: CallInputOf<O>): Promise<CallResult<OutputOf<O>>>;
  call(op: string, input?: CallInput): Promise<CallResult<Untyped>>;
  async call(op: AnyOperation | string, input: CallInput = {}): Promise<CallResult<unknown>> {
    const res = await this.send(op as string, input);
    if (res.status >= 400) throw new ApiResponseError(res.status, res.body, res.headers);
    return res;
  }

  /**
   * Like `call` but returns 4xx/5xx answers instead of throwing, so its body is the success
   * answer or an error envelope, by `status`: `Untyped` (narrow it by status yourself).
   */
  async send(op: AnyOperation | string, input: CallInput = {}): Promise<CallResult<Untyped>> {
    const operation = typeof op === 'string' ? operationById(op) : op;
    if (!operation) throw new Error(`unknown operation ${String(op)}`);
    const path = fillPath(operation.path, (input.params ?? {}) as Record<string, string>);
    return this.raw(operation.method.toUpperCase(), path, input);
  }

  /** Any method and path (the `avatar api` escape hatch). */
  async raw<T = Untyped>(
    method: string,
    path: string,
    input: CallInput = {},
  ): Promise<CallResult<T>> {
    const url = new URL(this.baseUrl + (path.startsWith('/') ? path : `/${path}`));
    for (const [k, v] of Object.entries(input.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent ?? 'avatar-cli',
      ...input.headers,
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (this.options.origin) headers.origin = this.options.origin;
    let body: string | Uint8Array | Readable | undefined;
    if (input.raw) {
      body = input.raw.onProgress
        ? Readable.from(chunked(input.raw.bytes, input.raw.onProgress))
        : input.raw.bytes;
      headers['content-type'] = input.raw.contentType;
      headers['content-length'] = String(input.raw.bytes.length);
    } else if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers['content-type'] = 'application/json';
    }
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher: this.dispatcher,
      signal: input.signal,
    });
    const resHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
    const bytes = Buffer.from(await res.body.arrayBuffer());
    let parsed: unknown = undefined;
    if (bytes.length > 0) {
      if ((resHeaders['content-type'] ?? '').includes('json')) {
        try {
          parsed = JSON.parse(bytes.toString('utf8'));
        } catch {
          parsed = bytes.toString('utf8');
        }
      } else parsed = bytes;
    }
    return { status: res.statusCode, headers: resHeaders, body: parsed as never };
  }

  async close(): Promise<void> {
    if (!this.options.dispatcher) await this.dispatcher.close();
  }
}

/** Upload bytes in 256 KiB chunks, reporting progress as each chunk is handed to the socket. */
async function* chunked(
  bytes: Uint8Array,
  onProgress: (sent: number, total: number) => void,
): AsyncIterable<Uint8Array> {
  const step = 256 * 1024;
  onProgress(0, bytes.length);
  for (let i = 0; i < bytes.length; i += step) {
    const part = bytes.subarray(i, Math.min(bytes.length, i + step));
    yield part;
    onProgress(i + part.length, bytes.length);
  }
}
