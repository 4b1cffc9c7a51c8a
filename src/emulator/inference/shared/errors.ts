import { boundText } from '../../../contract/echo.js';
import { ApiError } from '../../../server/api-error.js';

/**
 * The inference family's error format (spec 7): `{ error: { code, message, type } }`,
 * which is also the shape OpenAI-compatible clients read on /compat-a (they look at
 * `error.message`, `error.type`, `error.code` and `error.param`). `param` names the
 * offending field when there is one.
 */
export const errorTypeByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'conflict_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'server_error',
  502: 'upstream_error',
  503: 'service_unavailable_error',
  504: 'timeout_error',
};

export interface InferenceErrorBody {
  error: { code: string; message: string; type: string; param?: string | null };
}

export class InferenceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly opts: { param?: string; type?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'InferenceError';
  }

  /** The body; every text in it is bounded, whatever input it repeats (docs/fidelity.md "Echo of caller input"). */
  toBody(): InferenceErrorBody {
    const error: InferenceErrorBody['error'] = {
      code: boundText(this.code),
      message: boundText(this.message),
      type: this.opts.type ?? errorTypeByStatus[this.status] ?? 'invalid_request_error',
    };
    if (this.opts.param !== undefined) error.param = boundText(this.opts.param);
    return { error };
  }
}

export const invalid = (message: string, param?: string) =>
  new InferenceError(400, 'invalid_request', message, { param });
export const notFound = (what: string) => new InferenceError(404, 'not_found', `${what} not found`);

/** Any error thrown by shared code (auth, body reading) in the inference format. */
export function toInferenceError(e: unknown): InferenceError | null {
  if (e instanceof InferenceError) return e;
  if (e instanceof ApiError) {
    const code = e.code === 'invalid_json' ? 'invalid_json' : e.code;
    const message = e.opts.message ?? e.opts.detail ?? e.code;
    return new InferenceError(
      e.status,
      code,
      e.opts.detail && e.opts.message ? `${message} (${e.opts.detail})` : message,
      {
        headers: e.opts.headers,
      },
    );
  }
  return null;
}

/** The inference error format as a Response. */
export function errorResponse(err: InferenceError): Response {
  return new Response(JSON.stringify(err.toBody()), {
    status: err.status,
    headers: { 'content-type': 'application/json', ...err.opts.headers },
  });
}
