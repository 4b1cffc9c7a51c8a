import { boundText } from '../../contract/echo.js';
import type { ErrorBody } from '../../contract/errors.js';

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
