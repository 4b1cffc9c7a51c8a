/**
 * The one operation binder (src/server/binder.ts) as a server of any family sees it: the
 * family's auth runs before anything is read, a refused body gets the family's envelope,
 * the handler's body goes out with the operation's first 2xx, and `before` sees the JSON
 * ahead of validation. In-process Hono app (app.request): no port, no clock.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../src/contract/operation.js';
import { ApiError, apiRefusals } from '../src/server/api-error.js';
import { bind, reply, type Family, type Routes } from '../src/server/binder.js';
import { sameSecret } from '../src/server/safe-equal.js';

const create = defineOperation({
  id: 'test.create',
  method: 'post',
  path: '/things/{id}',
  summary: 'make a thing',
  auth: 'public',
  family: 'control',
  cli: false,
  params: z.object({ id: z.string().regex(/^t_/) }),
  body: z.object({ name: z.string().min(1) }),
  responses: {
    201: { description: 'made', schema: z.object({ id: z.string(), name: z.string() }) },
    202: { description: 'asked back', schema: z.object({ who: z.string() }) },
  },
});

/** A family whose auth is a shared secret in `x-key`, refusals in the `{ error, message, detail }` envelope. */
const keyed: Family<string> = {
  ...apiRefusals,
  auth(c) {
    const key = c.req.header('x-key') ?? '';
    if (!sameSecret(key, 'sesame')) throw new ApiError(401, 'unauthorized', { message: 'no key' });
    return key;
  },
};

function app(before?: (json: unknown) => Response | undefined) {
  const a = new Hono();
  a.onError((err, c) =>
    err instanceof ApiError ? c.json(err.toBody(), err.status as 400) : c.text('boom', 500),
  );
  bind(
    a as unknown as Routes,
    keyed,
    create,
    ({ params, body, auth }) => {
      if (body.name === 'teapot') return reply(202, { who: auth });
      return { id: params.id, name: body.name };
    },
    before ? { before } : {},
  );
  return a;
}

const post = (a: Hono, path: string, body: string, key = 'sesame') =>
  a.request(path, {
    method: 'POST',
    body,
    headers: { 'x-key': key, 'content-type': 'application/json' },
  });

describe('the operation binder', () => {
  it('checks the caller before it reads or validates anything: a bad key on a bad body is 401', async () => {
    const r = await post(app(), '/things/nope', '{not json', 'wrong');
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ error: 'unauthorized' });
  });

  it("refuses a bad path parameter, bad JSON and a bad body in the family's envelope, naming the field", async () => {
    const a = app();
    const params = await post(a, '/things/nope', '{"name":"x"}');
    expect(params.status).toBe(404);
    expect(await params.json()).toMatchObject({
      error: 'not_found',
      detail: expect.stringMatching(/^id: /),
    });
    const json = await post(a, '/things/t_1', '{not json');
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_json' });
    const body = await post(a, '/things/t_1', '{"name":""}');
    expect(body.status).toBe(400);
    expect(await body.json()).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^name: /),
    });
  });

  it("sends the handler's body with the operation's first 2xx, and a Reply with its own status", async () => {
    const a = app();
    const made = await post(a, '/things/t_1', '{"name":"kettle"}');
    expect(made.status).toBe(201);
    expect(await made.json()).toEqual({ id: 't_1', name: 'kettle' });
    const tea = await post(a, '/things/t_1', '{"name":"teapot"}');
    expect(tea.status).toBe(202);
    expect(await tea.json()).toEqual({ who: 'sesame' });
  });

  it("types a handler's answer, bare or in a Reply, as one of the operation's success bodies", () => {
    const routes = new Hono() as unknown as Routes;
    // @ts-expect-error `made` is not a success body of test.create
    bind(routes, keyed, create, () => ({ made: true }));
    // @ts-expect-error a Reply's body is checked the same way
    bind(routes, keyed, create, () => reply(202, { who: 7 }));
    bind(routes, keyed, create, () => reply(202, { who: 'x' }));
  });

  it('lets `before` answer with the JSON as sent, ahead of validation (an upstream judges it)', async () => {
    const a = app((json) =>
      (json as { upstream?: boolean }).upstream
        ? Response.json({ passed: json }, { status: 202 })
        : undefined,
    );
    const passed = await post(a, '/things/t_1', '{"upstream":true,"extra":1}');
    expect(passed.status).toBe(202);
    expect(await passed.json()).toEqual({ passed: { upstream: true, extra: 1 } });
    expect((await post(a, '/things/t_1', '{"extra":1}')).status).toBe(400);
  });
});

describe('sameSecret', () => {
  it('is true only for the same bytes, text or not, and false (not a throw) for another length', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret(Buffer.from('abc'), 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
    expect(sameSecret('', 'x')).toBe(false);
  });
});
