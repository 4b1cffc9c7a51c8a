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

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.code };
    if (this.opts.message !== undefined) body.message = this.opts.message;
    if (this.opts.retryable !== undefined) body.retryable = this.opts.retryable;
    if (this.opts.detail !== undefined) body.detail = this.opts.detail;
    return { ...body, ...this.opts.extra };
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', { message: `${what} not found` });
export const badRequest = (code: string, detail?: string, message?: string) =>
  new ApiError(400, code, { detail, message });
