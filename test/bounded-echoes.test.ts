import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/**
 * Error bodies never echo unbounded input (issue 7 item 6): a long value comes back as a
 * short prefix with an ellipsis, a long list of keys as the first few and a count.
 */
const h = useEmulator({ mintRatePerMinute: 0 });
const long = 'x'.repeat(100_000);
const size = (b: unknown) => JSON.stringify(b).length;

describe('bounded echoes in error bodies', () => {
  it('a 100 kB profile_id comes back as a short prefix, the sentence intact', async () => {
    const r = await h.api('/api/v1/sessions', { body: { persona: 'ava', profile_id: long } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('profile_mismatch');
    expect(r.body.message).toMatch(/^profile x{10,64}… does not belong to avatar /);
    expect(size(r.body)).toBeLessThan(300);
  });

  it('10,000 unknown keys: detail names the first few and counts the rest', async () => {
    const body: Record<string, unknown> = { persona: 'ava' };
    for (let i = 0; i < 10_000; i++) body[`k${i}`] = 1;
    const r = await h.api('/api/v1/sessions', { body });
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(r.body.detail).toBe(
      '(body): Unrecognized keys: "k0", "k1", "k2", "k3", "k4" and 9,995 more',
    );
  });

  it.each([
    ['a 100 kB persona (404)', { persona: long }, 404],
    ['a 100 kB unknown key', { persona: 'ava', [long]: 1 }, 400],
    [
      'a 100 kB unknown tools field (suffixed error code)',
      { persona: 'ava', tools: { [long]: 1 } },
      400,
    ],
  ])('%s is bounded in every field', async (_name, body, status) => {
    const r = await h.api('/api/v1/sessions', { body });
    expect(r.status).toBe(status);
    expect(size(r.body)).toBeLessThan(400);
    expect(JSON.stringify(r.body)).toMatch(/x…/);
  });

  it('a legal 64-character tool name still comes back whole in its suffixed code', async () => {
    const name = 'n'.repeat(64);
    const tool = {
      name,
      description: 'x'.repeat(301),
      input_schema: { type: 'object', properties: {} },
    };
    const r = await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        agent: { hook: 'https://tenant.example/hook', tok: 't' },
        tools: { inline: [tool] },
      },
    });
    expect(r).toMatchObject({ status: 400, body: { error: `invalid_tool_description:${name}` } });
  });

  it('a 10 kB unknown path is bounded in the 404 message', async () => {
    const r = await h.api(`/api/v1/${'y'.repeat(10_000)}`);
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^no route GET \/api\/v1\/y+…$/);
    expect(size(r.body)).toBeLessThan(200);
  });
});

describe('bounded echoes in the inference family (issue 32 item 5)', () => {
  const h = useEmulator({ inferenceRateLimits: false });
  const huge = 'z'.repeat(200_000);
  const key = () => h.emu.keys.dashboardKey;
  const cases: [string, () => string, unknown][] = [
    ['rerank model', () => '/compat-a/v1/rerank', { model: huge, query: 'q', documents: ['d'] }],
    [
      'chat model',
      () => '/compat-a/v1/chat/completions',
      { model: huge, messages: [{ role: 'user', content: 'hi' }] },
    ],
    ['embeddings model', () => '/compat-a/v1/embeddings', { model: huge, input: 'hi' }],
    [
      'speech voice',
      () => '/compat-a/v1/audio/speech',
      { model: 'avatar-tts', input: 'hi', voice: huge },
    ],
    [
      'token scopes',
      () => `/api/organizations/${h.emu.keys.orgId}/tokens`,
      { name: 't', scopes: [huge] },
    ],
    [
      'workflow edge to no node',
      () => '/api/workflows',
      {
        name: 'wf',
        dag: {
          nodes: { a: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'x' } } },
          edges: [[huge, 'a']],
        },
      },
    ],
    ['job model', () => '/api/jobs', { model_id: huge, task: 'embedding', payload: {} }],
  ];

  it.each(cases)('%s: a 200,000-character value comes back bounded', async (_n, path, body) => {
    const r = await h.api(path(), { key: key(), body });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(typeof r.body.error.code).toBe('string');
    expect(size(r.body)).toBeLessThan(1_500);
    expect(JSON.stringify(r.body)).toMatch(/z…/);
  });

  it('a 10,000-character id in the path is bounded too', async () => {
    for (const path of [`/api/jobs/${'y'.repeat(10_000)}`, `/compat-b/${'y'.repeat(10_000)}`]) {
      const r = await h.api(path, {
        key: key(),
        ...(path.startsWith('/compat-b') ? { body: { prompt: 'x' } } : {}),
      });
      expect(r.status, path.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(size(r.body), path.slice(0, 20)).toBeLessThan(1_500);
    }
  });
});

describe('bounded echoes on the edge', () => {
  const h = useEmulator({ mintRatePerMinute: 0 });
  it('a refused 8,000-character Origin comes back bounded from /chat', async () => {
    const m = await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        domain_allowlist: ['https://app.example'],
        config: { render: false },
      },
    });
    expect(m.status).toBe(201);
    const r = await fetch(`${m.body.connect_url}/chat?token=${m.body.session_token}`, {
      method: 'POST',
      headers: {
        origin: `https://${'o'.repeat(8_000)}.example`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ text: 'hi' }),
    });
    const body = (await r.json()) as { error: string; message: string };
    expect(r.status).toBe(403);
    expect(body.error).toBe('origin_not_allowed');
    expect(body.message).toMatch(/o…/);
    expect(JSON.stringify(body).length).toBeLessThan(1_200);
    await h.api(`/api/v1/sessions/${m.body.session_id}/release`, { body: {} });
  });
});
