/**
 * One contract operation from a page, with `fetch`: the path filled from `params`
 * (`fillPath`), the method and the answer's type from the operation (`OutputOf<typeof op>`),
 * JSON in and out, `ApiError` on a 4xx/5xx (any body: apiErrorOf) or a 2xx that is not JSON. The browser's counterpart of the Node client's
 * `AvatarClient.call`; it imports only the contract's path helper and types, so the bundle
 * carries the schemas of the operations a page names and nothing else.
 */
import { fillPath, type AnyOperation, type InputOf, type OutputOf } from '../contract/operation.js';
import { ApiError, apiErrorOf, jsonOrUndefined } from './mint.js';

export interface BrowserCallOptions {
  /** `Authorization: Bearer` value. */
  key: string;
  /** The service's base URL; default: the page's origin (same-origin calls). */
  baseUrl?: string;
  signal?: AbortSignal;
}

export async function callOperation<O extends AnyOperation>(
  op: O,
  input: InputOf<O>,
  o: BrowserCallOptions,
): Promise<OutputOf<O>> {
  const params = (input.params ?? {}) as Record<string, string | number>;
  const url = new URL(fillPath(op.path, params), o.baseUrl ?? location.origin);
  for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, unknown>))
    if (v !== undefined) url.searchParams.set(k, String(v));
  const method = op.method.toUpperCase();
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${o.key}`,
      ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
    signal: o.signal,
  });
  const text = await res.text();
  const json = jsonOrUndefined(text);
  if (!res.ok) throw apiErrorOf(res.status, res.statusText, json, `${method} ${url.pathname}`);
  if (json === undefined && text)
    throw new ApiError(
      res.status,
      'invalid_response',
      undefined,
      `${method} ${url.pathname}: not JSON`,
    );
  return json as OutputOf<O>;
}
