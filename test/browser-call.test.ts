/**
 * callOperation (src/browser/call.ts) turns every 4xx/5xx into the documented ApiError
 * (docs/browser.md), whatever the body: a proxy's HTML 502, the inference family's
 * `{ error: { code, message, type } }`, the control plane's `{ error, message, detail }`.
 * `fetch` is stubbed per test (restored after): no server is needed to answer these.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callOperation } from '../src/browser/call.js';
import { ApiError } from '../src/browser/mint.js';
import { listWorkspaces } from '../src/contract/operations/core.js';
import { chatCompletions } from '../src/contract/operations/inference.js';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});
function answer(status: number, body: string, type: string): void {
  globalThis.fetch = (async () =>
    new Response(body, { status, headers: { 'content-type': type } })) as typeof fetch;
}
const o = { key: 'k', baseUrl: 'http://127.0.0.1:9' };

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe('callOperation refusals are ApiErrors', () => {
  it('a non-JSON 502 (a proxy page) is ApiError 502, not a SyntaxError', async () => {
    answer(502, '<html><body>Bad Gateway</body></html>', 'text/html');
    const e = await refusal(callOperation(listWorkspaces, {}, o));
    expect(e).toMatchObject({ status: 502, error: 'http_error' });
  });

  it('an inference envelope 429 gives its code and message', async () => {
    answer(
      429,
      JSON.stringify({
        error: { code: 'rate_limit', message: 'slow down', type: 'rate_limit_error' },
      }),
      'application/json',
    );
    const e = await refusal(
      callOperation(
        chatCompletions,
        { body: { model: 'm', messages: [{ role: 'user', content: 'hi' }] } } as never,
        o,
      ),
    );
    expect(e).toMatchObject({ status: 429, error: 'rate_limit' });
    expect(e.message).toContain('slow down');
  });

  it('a control-plane envelope 404 gives its error, detail and message', async () => {
    answer(
      404,
      JSON.stringify({ error: 'not_found', message: 'no such workspace', detail: 'ws' }),
      'application/json',
    );
    const e = await refusal(callOperation(listWorkspaces, {}, o));
    expect(e).toMatchObject({ status: 404, error: 'not_found', detail: 'ws' });
    expect(e.message).toContain('no such workspace');
  });
});
