/**
 * Errors of an OpenAI-compatible upstream (`--llm-url`, `--asr-url`), mapped to a few codes
 * a caller can act on: the edge turns them into a spoken apology and a log line, compat-a
 * into the spec's error envelope. `detail` names the URL and what the upstream said
 * (bounded), never the API key, and every URL in it is shown without userinfo or query
 * (`shownUrl`: `user:pass@` and `?key=` stay out of logs and error answers).
 */
export type UpstreamErrorCode =
  /** Connection refused, DNS failure, TLS failure: nothing answered at the URL. */
  | 'upstream_unreachable'
  /** 401 / 403: the key (AVATAR_LLM_API_KEY / AVATAR_ASR_API_KEY) is missing or wrong. */
  | 'upstream_unauthorized'
  /** 404: wrong path or unknown model. */
  | 'upstream_not_found'
  /** 429: the upstream's rate limit. */
  | 'upstream_rate_limited'
  /** Any other 4xx: the upstream refused the request (e.g. a parameter it does not take). */
  | 'upstream_rejected'
  /** 5xx. */
  | 'upstream_failed'
  /** 2xx with a body that is not what the API promises (not SSE, not JSON, no text). */
  | 'upstream_bad_response'
  /** No answer within the timeout. */
  | 'upstream_timeout';

/** A URL as a log line or an error may show it: no `user:pass@`, no `?query`, no `#hash`. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#\s]*@/i, '$1').replace(/[?#].*$/, '');
  }
}

/** Every URL in a text shown by shownUrl (an error's detail may quote the fetch's message). */
const shownUrls = (text: string) => text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s]+/gi, shownUrl);

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly detail: string;
  constructor(
    readonly code: UpstreamErrorCode,
    detail: string,
    /** HTTP status of the upstream's answer, when there was one. */
    readonly status?: number,
  ) {
    const shown = shownUrls(detail);
    super(`${code}: ${shown}`);
    this.detail = shown;
  }
}

const MAX_DETAIL = 300;
const bound = (s: string) => (s.length > MAX_DETAIL ? `${s.slice(0, MAX_DETAIL)}...` : s);

/** The error for a non-2xx answer; reads the body for the upstream's own message. */
export async function errorFromResponse(url: string, res: Response): Promise<UpstreamError> {
  let said = '';
  try {
    const body = await res.text();
    try {
      const j = JSON.parse(body) as {
        error?: { message?: string } | string;
        message?: string;
        detail?: string;
      };
      said =
        (typeof j.error === 'string' ? j.error : j.error?.message) ?? j.message ?? j.detail ?? body;
    } catch {
      said = body;
    }
  } catch {
    /* no body */
  }
  const s = res.status;
  const code: UpstreamErrorCode =
    s === 401 || s === 403
      ? 'upstream_unauthorized'
      : s === 404
        ? 'upstream_not_found'
        : s === 429
          ? 'upstream_rate_limited'
          : s >= 500
            ? 'upstream_failed'
            : 'upstream_rejected';
  const text = said.replace(/\s+/g, ' ').trim();
  return new UpstreamError(code, bound(`${url} answered ${s}${text ? `: ${text}` : ''}`), s);
}

/** The error for a fetch that threw (the caller's own abort is re-thrown as is). */
export function errorFromFetch(url: string, err: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? err;
  if (err instanceof UpstreamError) return err;
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError')
    return new UpstreamError('upstream_timeout', `${url} did not answer in time`);
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new UpstreamError('upstream_unreachable', bound(`cannot reach ${url} (${why})`));
}

/**
 * A base URL plus an API path, tolerating a base that already ends with the path; a query
 * on the base (`?key=`) stays a query, after the path.
 */
export function endpoint(base: string, path: string): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    const b = base.replace(/\/+$/, '');
    return b.endsWith(path) ? b : `${b}${path}`;
  }
  const p = u.pathname.replace(/\/+$/, '');
  u.pathname = p.endsWith(path) ? p : `${p}${path}`;
  return u.toString();
}

/** Upstream answers read at most (an audio reply, a transcription): 50 MiB. */
export const UPSTREAM_BODY_BYTES = 50 * 1024 * 1024;

/**
 * A response's body, read up to `maxBytes`; `'over'` when it declares or streams more (the
 * read stops there and the rest is cancelled). A stream that breaks mid-body throws.
 */
export async function readCapped(res: Response, maxBytes: number): Promise<Buffer | 'over'> {
  if (Number(res.headers.get('content-length') ?? NaN) > maxBytes) {
    await res.body?.cancel();
    return 'over';
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return 'over';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** A 2xx answer's body up to `maxBytes`; over it, an `upstream_bad_response` UpstreamError. */
export async function readUpstreamBody(
  url: string,
  res: Response,
  maxBytes = UPSTREAM_BODY_BYTES,
): Promise<Buffer> {
  const body = await readCapped(res, maxBytes);
  if (body === 'over')
    throw new UpstreamError('upstream_bad_response', `${url} answered over ${maxBytes} bytes`);
  return body;
}
