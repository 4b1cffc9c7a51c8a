import { describe, expect, it } from 'vitest';
import { fillPath, pathParamNames } from '../src/contract/operation.js';
import { inferenceOperations } from '../src/contract/operations/inference.js';
import { useEmulator } from './helpers/emulator.js';

// Bad input on every inference route gets a 4xx in the inference error format: never a
// 500, a hang or a control-plane envelope.
const h = useEmulator({ inferenceRateLimits: false });

// Every POST of the inference family in the OpenAPI document (the contract's table); compat-b's
// `{slug}` is a real model, other ids fresh.
const POSTS = inferenceOperations
  .filter((o) => o.method === 'post' && (o.body || o.rawBody))
  .map((o) =>
    fillPath(
      o.path,
      Object.fromEntries(
        pathParamNames(o.path).map((p) => [p, p === 'slug' ? 'image-v1' : 'nope']),
      ),
    ),
  );
const BODIES: [string, string][] = [
  ['not json', '{"model":'],
  ['null', 'null'],
  ['array', '[1,2]'],
  ['string', '"x"'],
  ['empty object', '{}'],
  [
    'wrong types',
    '{"model":7,"input":{"a":1},"messages":"hi","prompt":[],"query":5,"documents":"d","dag":"x","name":3,"request_ids":"x","model_id":[],"task":{}}',
  ],
  [
    'huge numbers',
    '{"model":"avatar-image","prompt":"x","n":1e308,"size":"99999x99999","dimensions":-1}',
  ],
  ['empty', ''],
];

describe('hostile bodies on inference routes', () => {
  it.each(POSTS)('%s answers 4xx in the inference format', async (path) => {
    for (const [what, body] of BODIES) {
      if (path === '/api/prompt-rewrite' && what === 'huge numbers') continue; // a valid prompt: extra fields are ignored
      const res = await h.fetch(path, {
        method: 'POST',
        key: h.emu.keys.dashboardKey,
        body,
        headers: { 'content-type': 'application/json' },
      });
      const text = await res.text();
      expect(res.status, `${what}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${what}: ${text}`).toBeLessThan(500);
      const parsed = JSON.parse(text);
      expect(typeof parsed.error?.code, `${what}: ${text}`).toBe('string');
      expect(typeof parsed.error?.type, `${what}: ${text}`).toBe('string');
    }
  });

  it('unknown ids and paths are 404 not_found in the inference format', async () => {
    for (const path of [
      '/api/jobs/nope',
      '/compat-b/requests/nope',
      '/api/workflows/nope',
      '/api/workflows/executions/nope',
      '/compat-a/v1/files/nope',
      '/compat-a/v1/batches/nope',
      '/compat-a/v1/nothing-here',
      '/inference/media/nope.png',
    ]) {
      const r = await h.api(path, { key: h.emu.keys.dashboardKey });
      expect(r.status, path).toBe(404);
      expect(r.body.error, path).toMatchObject({ code: 'not_found', type: 'not_found_error' });
    }
  });

  it('checks the body before what the path names (docs/fidelity.md "Order of refusals")', async () => {
    const post = async (path: string, body: string) => {
      const r = await h.fetch(path, {
        method: 'POST',
        key: h.emu.keys.dashboardKey,
        body,
        headers: { 'content-type': 'application/json' },
      });
      return {
        status: r.status,
        error: ((await r.json()) as { error: Record<string, unknown> }).error,
      };
    };
    const bad = await post('/api/workflows/nope/execute', '{"input_params":5}');
    expect(bad).toMatchObject({
      status: 400,
      error: { code: 'invalid_request', param: 'input_params' },
    });
    expect(await post('/api/workflows/nope/execute', '{}')).toMatchObject({
      status: 404,
      error: { code: 'not_found' },
    });
    expect(await post('/compat-b/no-such-slug', 'not json')).toMatchObject({
      status: 400,
      error: { code: 'invalid_json' },
    });
    expect((await post('/compat-b/no-such-slug', '{"sync_mode":"yes"}')).status).toBe(400);
    expect(await post('/compat-b/no-such-slug', '{}')).toMatchObject({
      status: 404,
      error: { code: 'not_found' },
    });
  });

  it('a multipart route refuses a JSON body and a form without its file', async () => {
    const form = new FormData();
    form.append('model', 'avatar-asr');
    const r = await h.fetch('/compat-a/v1/audio/transcriptions', {
      method: 'POST',
      key: h.emu.keys.dashboardKey,
      body: form,
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error.param).toBe('file');
  });
});

describe('CORS', () => {
  it('answers a browser preflight on compat-a with the requested headers', async () => {
    const r = await h.fetch('/compat-a/v1/chat/completions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-stainless-os',
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(r.headers.get('access-control-allow-headers')).toContain('x-stainless-os');
  });
});
