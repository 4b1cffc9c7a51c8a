/**
 * Minting from a page (spec 4.5), for a publishable key (stock personas, from its
 * registered origins): `POST /api/v1/sessions`, and while every seat is taken (202) the
 * queue loop: wait `retry_after` seconds (at once when `claimable`), re-POST the same body
 * with the `queue_ticket`, until 201 or an error. A secret key never goes to a browser:
 * mint on your server and hand the page `connect_url` and `session_token`.
 */

export interface Queued {
  status: 'queued';
  queue_ticket: string;
  position: number;
  eta_seconds: number;
  retry_after: number;
  state: 'waiting' | 'claimable';
  claim_deadline?: number;
}

export interface MintOptions {
  /** The control plane's base URL (`https://...`; the emulator's `http://127.0.0.1:4780`). */
  baseUrl: string;
  /** `Authorization: Bearer` value: a publishable key in a page. */
  key: string;
  /** The mint body (`persona`, `protocol_versions`, ...). */
  body: Record<string, unknown>;
  /** Each 202: position, ETA and state, for the page to show. */
  onQueued?(q: Queued): void;
  /** Aborting leaves the line (`DELETE /api/v1/sessions/queue/{ticket}`). */
  signal?: AbortSignal;
}

/** An error answer of the control plane (`{ error, message, detail }`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly detail: string | undefined,
    message: string,
  ) {
    super(`${status} ${error}${detail ? `: ${detail}` : ''} (${message})`);
    this.name = 'ApiError';
  }
}

/**
 * The ApiError of a refused call, from its body whatever the family: the control plane's
 * `{ error, message, detail }`, the inference family's `{ error: { code, message } }`, or a
 * body that is no JSON at all (a proxy's HTML 502): `http_error` and the status text.
 */
export function apiErrorOf(
  status: number,
  statusText: string,
  json: unknown,
  context?: string,
): ApiError {
  const e = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const inner =
    e.error && typeof e.error === 'object' ? (e.error as Record<string, unknown>) : undefined;
  const code = inner ? inner.code : e.error;
  const message = inner ? inner.message : e.message;
  const text = typeof message === 'string' ? message : statusText;
  return new ApiError(
    status,
    typeof code === 'string' ? code : 'http_error',
    typeof e.detail === 'string' ? e.detail : undefined,
    context ? `${context}: ${text}` : text,
  );
}

/** A response body as JSON, or undefined when it is empty or not JSON. */
export function jsonOrUndefined(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function mintSession<T = Record<string, unknown>>(o: MintOptions): Promise<T> {
  const url = `${o.baseUrl.replace(/\/+$/, '')}/api/v1/sessions`;
  const headers = { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' };
  let ticket: string | undefined;
  try {
    for (;;) {
      const body = ticket ? { ...o.body, queue_ticket: ticket } : o.body;
      const res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: o.signal,
      });
      const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.status === 201) return json as T;
      if (res.status !== 202) throw apiErrorOf(res.status, res.statusText, json);
      const q = json as unknown as Queued;
      ticket = q.queue_ticket;
      o.onQueued?.(q);
      if (q.state !== 'claimable') await wait(Math.max(1, q.retry_after) * 1000, o.signal);
    }
  } catch (e) {
    if (ticket && o.signal?.aborted) {
      await fetch(`${url}/queue/${encodeURIComponent(ticket)}`, {
        method: 'DELETE',
        headers: { authorization: headers.authorization },
      }).catch(() => undefined);
    }
    throw e;
  }
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
