import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/**
 * Hostile bodies on every session, queue and webhook route: each gets a 4xx with the spec's
 * (or our documented) code, never a 500, and the emulator keeps answering.
 */
const h = useEmulator({
  seats: 50,
  mintRatePerMinute: 0,
  planLimits: { free: { concurrency: 1000, maxCapSeconds: 3600 } },
});

const deepArr = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObj = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const deepSchema = (n: number) =>
  '{"type":"object","properties":{"a":'.repeat(n) + '{}' + '}}'.repeat(n);

async function send(method: string, path: string, body?: string) {
  const r = await h.fetch(path, {
    method,
    key: h.emu.keys.secretKey,
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const mint = (body: string) => send('POST', '/api/v1/sessions', body);

describe('mint: nesting, sizes, types', () => {
  const cases: [string, string, number, string, string?][] = [
    [
      'config nested 100k deep',
      `{"persona":"ava","config":{"x":${deepArr(100_000)}}}`,
      400,
      'invalid_config',
      'config_too_large',
    ],
    [
      'agent nested 100k deep',
      `{"persona":"ava","agent":{"x":${deepArr(100_000)}}}`,
      400,
      'agent_claim_too_large',
    ],
    [
      'metadata nested 100k deep',
      `{"persona":"ava","metadata":{"x":${deepArr(100_000)}}}`,
      400,
      'invalid_request',
    ],
    [
      'metadata objects 50k deep',
      `{"persona":"ava","metadata":${deepObj(50_000)}}`,
      400,
      'invalid_request',
    ],
    [
      'history item nested deep',
      `{"persona":"ava","context":{"history":[{"role":"user","content":"c","x":${deepArr(100_000)}}]}}`,
      400,
      'invalid_request',
    ],
    [
      'inline input_schema nested deep',
      `{"persona":"ava","agent":{"hook":"https://h.example"},"tools":{"inline":[{"name":"t","description":"d","input_schema":{"type":"object","x":${deepArr(100_000)}}}]}}`,
      400,
      'schema_too_deep:t',
    ],
    [
      'extra_tools input_schema 2k deep',
      `{"persona":"ava","agent":{"hook":"https://h.example"},"extra_tools":{"inline":[{"name":"u","description":"d","input_schema":${deepSchema(2_000)}}]}}`,
      400,
      'schema_too_deep:u',
    ],
    [
      '300k protocol_versions',
      JSON.stringify({ persona: 'ava', protocol_versions: Array(300_000).fill(7) }),
      400,
      'invalid_request',
    ], // at most 16 offered versions (docs/fidelity.md),
    [
      'protocol_versions of strings',
      JSON.stringify({ persona: 'ava', protocol_versions: ['2'] }),
      400,
      'invalid_request',
    ],
    [
      'negative cap',
      JSON.stringify({ persona: 'ava', session_cap_seconds: -60 }),
      400,
      'invalid_session_cap_seconds',
    ],
    [
      'cap 1e308',
      JSON.stringify({ persona: 'ava', session_cap_seconds: 1e308 }),
      400,
      'invalid_session_cap_seconds',
    ],
    [
      'cap as string',
      JSON.stringify({ persona: 'ava', session_cap_seconds: '120' }),
      400,
      'invalid_session_cap_seconds',
    ],
    [
      'concurrency_cap 0',
      JSON.stringify({ persona: 'ava', concurrency_cap: 0 }),
      400,
      'invalid_request',
    ],
    [
      'concurrency_cap huge',
      JSON.stringify({ persona: 'ava', concurrency_cap: 1e300 }),
      400,
      'invalid_request',
    ],
    ['persona as number', JSON.stringify({ persona: 5 }), 400, 'invalid_request'],
    ['persona with NUL and emoji', JSON.stringify({ persona: '\u0000😀' }), 404, 'not_found'],
    [
      'response_language emoji',
      JSON.stringify({ persona: 'ava', response_language: '😀' }),
      400,
      'invalid_response_language',
    ],
    [
      'response_language object',
      JSON.stringify({ persona: 'ava', response_language: { a: 1 } }),
      400,
      'invalid_response_language',
    ],
    [
      'recording as string',
      JSON.stringify({ persona: 'ava', recording: 'yes' }),
      400,
      'invalid_recording',
    ],
    [
      'observability as number',
      JSON.stringify({ persona: 'ava', observability: 1 }),
      400,
      'invalid_observability',
    ],
    ['notify as array', JSON.stringify({ persona: 'ava', notify: [] }), 400, 'invalid_notify_url'],
    [
      'notify url 10k chars',
      JSON.stringify({
        persona: 'ava',
        notify: { url: 'https://x.example/' + 'a'.repeat(10_000) },
      }),
      400,
      'invalid_notify_url',
    ],
    [
      'notify secret as object',
      JSON.stringify({ persona: 'ava', notify: { url: 'https://x.example', secret: {} } }),
      400,
      'invalid_request',
    ],
    [
      'queue_ticket as number',
      JSON.stringify({ persona: 'ava', queue_ticket: 1 }),
      400,
      'invalid_request',
    ],
    [
      'domain_allowlist of numbers',
      JSON.stringify({ persona: 'ava', domain_allowlist: [1] }),
      400,
      'invalid_request',
    ],
    [
      'metadata as array',
      JSON.stringify({ persona: 'ava', metadata: [1] }),
      400,
      'invalid_request',
    ],
    ['context as string', JSON.stringify({ persona: 'ava', context: 'x' }), 400, 'invalid_request'],
    ['unknown field', JSON.stringify({ persona: 'ava', foo: 1 }), 400, 'invalid_request'],
    ['body is an array', '[1,2,3]', 400, 'invalid_request'],
    ['body is not JSON', '{"persona":', 400, 'invalid_json'],
    ['avatar_id not a uuid', JSON.stringify({ avatar_id: '../../etc' }), 400, 'invalid_request'],
  ];
  for (const [name, body, status, error, detail] of cases) {
    it(name, async () => {
      const r = await mint(body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error).toBe(error);
      if (detail) expect(r.body.detail).toBe(detail);
    });
  }

  it('a deep but legal metadata (100 levels) still mints', async () => {
    const r = await mint(`{"persona":"ava","metadata":{"x":${deepArr(100)}}}`);
    expect(r.status).toBe(201);
    await send(
      'POST',
      `/api/v1/sessions/${r.body.session_id}/release`,
      JSON.stringify({ seat_token: r.body.seat_token }),
    );
  });
});

describe('other routes', () => {
  const id = '00000000-0000-4000-8000-000000000000';
  it('queue status: any ticket string answers 200 (5,000 chars, unicode, percent junk)', async () => {
    for (const t of ['x'.repeat(5_000), '%F0%9F%98%80%00', '%E0%A4%A', 'qt_%2F..%2F']) {
      const r = await send('GET', `/api/v1/sessions/queue/${t}`);
      expect(r.status, t.slice(0, 20)).toBe(200);
      expect(r.body).toEqual({ state: 'expired', retry_after: 3 });
      expect((await send('DELETE', `/api/v1/sessions/queue/${t}`)).status).toBe(204);
    }
  });

  it('heartbeat and release: wrong types and junk seat tokens are 4xx', async () => {
    for (const path of [`/api/v1/sessions/${id}/heartbeat`, `/api/v1/sessions/${id}/release`]) {
      expect((await send('POST', path, `{"seat_token":${deepArr(100_000)}}`)).status).toBe(400);
      expect((await send('POST', path, '{"seat_token":5}')).status).toBe(400);
      expect(
        (await send('POST', path, JSON.stringify({ seat_token: '😀'.repeat(10_000) }))).status,
      ).toBe(401);
      expect((await send('POST', path, '{"seat_token":"x","extra":1}')).status).toBe(400);
      expect((await send('POST', path.replace(id, 'not-a-uuid'), '{}')).status).toBe(404);
    }
  });

  it('webhook create: junk events, huge url, wrong types are 400', async () => {
    const path = `/api/v1/workspaces/${h.emu.keys.workspaceId}/webhooks`;
    const bodies = [
      `{"url":"https://x.example","events":${deepArr(100_000)}}`,
      JSON.stringify({ url: 'https://x.example/' + 'a'.repeat(900_000), events: ['queue.*'] }),
      JSON.stringify({ url: 'https://x.example', events: [] }),
      JSON.stringify({ url: 'https://x.example', events: ['queue.nope'] }),
      JSON.stringify({ url: 'https://x.example', events: 'queue.*' }),
      JSON.stringify({ url: 5, events: ['queue.*'] }),
      JSON.stringify({ url: 'https://', events: ['queue.*'] }),
      JSON.stringify({ url: 'javascript:alert(1)', events: ['queue.*'] }),
      JSON.stringify({ url: 'https://x.example', events: ['queue.*'], secret: 'short' }),
    ];
    for (const b of bodies) {
      const r = await send('POST', path, b);
      expect(r.status, b.slice(0, 60)).toBe(400);
    }
    expect((await send('GET', path)).body.data).toEqual([]);
  });

  it('the emulator still answers', async () => {
    expect((await send('GET', '/api/v1/sessions/queue/qt_x')).status).toBe(200);
  });
});
