import type { z } from 'zod';
import { boundText, echo, echoList } from '../contract/echo.js';
import type { ErrorBody } from '../contract/errors.js';

/**
 * A typed error that becomes the spec's envelope `{ error, message?, retryable?, detail?, ...extra }`
 * in one place (the app's onError). Throw it from any handler or store.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly opts: {
      message?: string;
      detail?: string;
      retryable?: boolean;
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(opts.message ?? opts.detail ?? code);
    this.name = 'ApiError';
  }

  /** The envelope; every text in it is bounded, whatever input it repeats (issue 7 item 6). */
  toBody(): ErrorBody {
    const body: ErrorBody = { error: boundText(this.code) };
    if (this.opts.message !== undefined) body.message = boundText(this.opts.message);
    if (this.opts.retryable !== undefined) body.retryable = this.opts.retryable;
    if (this.opts.detail !== undefined) body.detail = boundText(this.opts.detail);
    for (const [k, v] of Object.entries(this.opts.extra ?? {}))
      body[k] = typeof v === 'string' ? boundText(v) : v;
    return body;
  }
}

export const notFound = (what: string) =>
  new ApiError(404, 'not_found', { message: `${what} not found` });
export const badRequest = (code: string, detail?: string, message?: string) =>
  new ApiError(400, code, { detail, message });

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

const REFUSED = {
  params: [404, 'not_found', 'no such resource'],
  query: [400, 'invalid_request', 'invalid query'],
  body: [400, 'invalid_request', 'invalid request body'],
} as const;

/**
 * The refusals of the `{ error, message, detail }` envelope, for the binder (server/binder.ts):
 * the control plane's and an edge box's. An empty JSON body reads as `{}`.
 */
export const apiRefusals = {
  invalid(where: 'params' | 'query' | 'body', err: z.ZodError): ApiError {
    const [status, code, message] = REFUSED[where];
    return new ApiError(status, code, { message, detail: zodDetail(err) });
  },
  invalidJson: (message: string): ApiError => new ApiError(400, 'invalid_json', { message }),
  emptyBody: (): unknown => ({}),
};
