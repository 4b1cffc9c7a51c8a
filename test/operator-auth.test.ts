import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 23: the operator routes (`/_emulator/*`) need the operator credential (the
 * per-start operator token or the emulator's own keys), refuse cross-origin and non-JSON
 * writes, send no CORS headers, and a box credential is issued to the operator only
 * (docs/security.md).
 */
const h = useEmulator({ boxes: 1, mintRatePerMinute: 0 });
const EVIL = 'https://attacker.example';
let otherKey = '';
let orgId = '';

beforeAll(async () => {
  // A key of the same workspace that is not one of the emulator's own: not an operator credential.
  otherKey = (await h.api('/api/v1/tokens', { body: { name: 'app key' } })).body.token;
  orgId = h.emu.keys.orgId;
});

const reads = () => [
  '/_emulator/boxes',
  '/_emulator/queue',
  '/_emulator/webhooks/deliveries',
  '/_emulator/generations',
  '/_emulator/generations/voices',
  '/_emulator/clock',
  '/_emulator/sessions/sess_unknown/recordings',
  '/_emulator/sessions/sess_unknown/recordings/mic.wav',
];
const writes = () =>
  [
    ['/_emulator/boxes', {}],
    ['/_emulator/queue/drain', {}],
    ['/_emulator/generations/faults', { stage: null }],
    [`/_emulator/orgs/${orgId}/plan`, { plan: 'free' }],
    ['/_emulator/clock/advance', { ms: 0 }],
  ] as const;

const send = (
  path: string,
  init: { method?: string; key?: string; type?: string; origin?: string; body?: string } = {},
) => {
  const headers: Record<string, string> = {};
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.type) headers['content-type'] = init.type;
  if (init.origin) headers.origin = init.origin;
  return fetch(h.baseUrl + path, { method: init.method ?? 'GET', headers, body: init.body });
};

describe('operator routes need the operator credential', () => {
  it('every read without a credential is 401 and reveals nothing', async () => {
    for (const path of reads()) {
      const r = await send(path);
      expect(r.status, path).toBe(401);
      const body = await r.json();
      expect(body.error).toBe('unauthorized');
      expect(body.message).toMatch(/operator token/);
      expect(JSON.stringify(body)).not.toMatch(/box_|tickets|now_ms/);
    }
  });

  it('every write without a credential is 401 and changes nothing', async () => {
    for (const [path, body] of writes()) {
      const r = await send(path, {
        method: 'POST',
        type: 'application/json',
        body: JSON.stringify(body),
      });
      expect(r.status, path).toBe(401);
    }
    const plant = await send('/_emulator/generations/faults', {
      method: 'POST',
      type: 'application/json',
      body: '{"stage":"tts","count":5}',
    });
    expect(plant.status).toBe(401);
    expect((await (await h.op('/_emulator/generations')).json()).fault).toBeNull();
  });

  it('the operator token, the secret key and the dashboard key each work; another key of the workspace, a wrong or malformed bearer do not', async () => {
    for (const key of [h.emu.operatorToken, h.emu.keys.secretKey, h.emu.keys.dashboardKey]) {
      for (const path of reads()) {
        const r = await send(path, { key });
        // The recordings of an unknown session: the route answered (404), the guard let it through.
        expect(r.status, `${path} ${key.slice(0, 6)}`).toBe(
          path.includes('sess_unknown') ? 404 : 200,
        );
      }
      for (const [path, body] of writes()) {
        const r = await send(path, {
          method: 'POST',
          key,
          type: 'application/json',
          body: JSON.stringify(body),
        });
        // clock/advance: the default clock is drivable (docs/testing.md), so it advances: past the guard.
        expect(r.status, path).toBe(path.endsWith('/boxes') ? 201 : 200);
      }
    }
    expect(h.emu.operatorToken).toMatch(/^op_[0-9a-f]{48}$/);
    for (const key of [otherKey, 'op_0000', 'sk_live_nope'])
      expect((await send('/_emulator/boxes', { key })).status).toBe(401);
    const malformed = await fetch(h.baseUrl + '/_emulator/queue', {
      headers: { authorization: 'Basic abc' },
    });
    expect(malformed.status).toBe(401);
  });

  it('the playground page (/_emulator/ui) is navigated to, so it loads without a credential, and may not be framed by another page; its writes still need one', async () => {
    const page = await send('/_emulator/ui');
    expect(page.status).not.toBe(401);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(
      (await send('/_emulator/ui', { method: 'POST', type: 'application/json', body: '{}' }))
        .status,
    ).toBe(401);
  });

  it('/_emulator/health stays open (liveness and version only)', async () => {
    const r = await send('/_emulator/health');
    expect(r.status).toBe(200);
    expect(Object.keys(await r.json()).sort()).toEqual([
      'in_memory',
      'ok',
      'started_at',
      'version',
    ]);
  });
});

describe('no simple cross-origin writes, no CORS on /_emulator', () => {
  it('a text/plain POST from a foreign Origin to each write is refused, with or without a credential, and changes nothing', async () => {
    for (const [path, body] of writes()) {
      for (const key of [undefined, h.emu.operatorToken]) {
        const r = await send(path, {
          method: 'POST',
          key,
          type: 'text/plain',
          origin: EVIL,
          body: JSON.stringify(body),
        });
        expect(r.status, path).toBe(403);
        expect((await r.json()).error).toBe('origin_not_allowed');
        expect(r.headers.get('access-control-allow-origin')).toBeNull();
      }
    }
    const drain = await send('/_emulator/generations/faults', {
      method: 'POST',
      key: h.emu.operatorToken,
      type: 'text/plain',
      origin: EVIL,
      body: '{"stage":"video"}',
    });
    expect(drain.status).toBe(403);
    expect((await (await h.op('/_emulator/generations')).json()).fault).toBeNull();
  });

  it('a write that is not application/json is 415 even with the credential; a "null" Origin is foreign; the own origin passes', async () => {
    for (const [path, body] of writes()) {
      const r = await send(path, {
        method: 'POST',
        key: h.emu.operatorToken,
        type: 'text/plain',
        body: JSON.stringify(body),
      });
      expect(r.status, path).toBe(415);
      expect((await r.json()).error).toBe('unsupported_media_type');
      const form = await send(path, {
        method: 'POST',
        key: h.emu.operatorToken,
        type: 'application/x-www-form-urlencoded',
        body: 'a=1',
      });
      expect(form.status, path).toBe(415);
    }
    const sandboxed = await send('/_emulator/queue/drain', {
      method: 'POST',
      key: h.emu.operatorToken,
      type: 'application/json',
      origin: 'null',
      body: '{}',
    });
    expect(sandboxed.status).toBe(403);
    const own = new URL(h.baseUrl).origin;
    for (const origin of [own, own.replace('127.0.0.1', 'localhost')]) {
      const r = await send('/_emulator/queue/drain', {
        method: 'POST',
        key: h.emu.operatorToken,
        type: 'application/json; charset=utf-8',
        origin,
        body: '{}',
      });
      expect(r.status, origin).toBe(200);
    }
    // Same host, another port (another local dev server) is another origin.
    const otherPort = await send('/_emulator/queue/drain', {
      method: 'POST',
      key: h.emu.operatorToken,
      type: 'application/json',
      origin: 'http://localhost:3000',
      body: '{}',
    });
    expect(otherPort.status).toBe(403);
  });

  it('/_emulator sends no CORS headers to a foreign origin (preflight or read); /api keeps its CORS without Private Network Access for public origins', async () => {
    const pre = await fetch(h.baseUrl + '/_emulator/boxes', {
      method: 'OPTIONS',
      headers: {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers')).toBeNull();
    const read = await send('/_emulator/boxes', { key: h.emu.operatorToken, origin: EVIL });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();

    const api = await fetch(h.baseUrl + '/api/v1/sessions', {
      method: 'OPTIONS',
      headers: {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(api.headers.get('access-control-allow-origin')).toBe(EVIL);
    expect(api.headers.get('access-control-allow-private-network')).toBeNull();
  });
});

describe('box registration is privileged', () => {
  it('no box credential without the operator credential, so a rogue box cannot register and every mint still goes to the real fleet', async () => {
    const asked = await send('/_emulator/boxes', {
      method: 'POST',
      type: 'application/json',
      body: '{}',
    });
    expect(asked.status).toBe(401);
    expect(JSON.stringify(await asked.json())).not.toMatch(/"secret"|"box_id"/);
    // A made-up credential is refused by the internal box API.
    const reg = await fetch(h.baseUrl + '/_internal/boxes/box_rogue/register', {
      method: 'POST',
      headers: {
        authorization: 'Bearer 0000000000000000000000000000000000000000000000000',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        base_url: 'http://attacker.example:9',
        seats: 1000,
        protocols: [1, 2],
        custom_avatars: true,
        verified: true,
      }),
    });
    expect(reg.status).toBe(401);
    const real = (await (await h.op('/_emulator/boxes')).json()).data.map(
      (b: { base_url: string }) => b.base_url,
    );
    for (let i = 0; i < 5; i++) {
      const m = await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false } },
      });
      expect(real).toContain(m.body.connect_url);
      await h.api(`/api/v1/sessions/${m.body.session_id}/release`, { body: {} });
    }
  });

  it('with the operator credential a box credential is issued (201), as `avatar edge start` gets it', async () => {
    const r = await h.op('/_emulator/boxes', { method: 'POST' });
    expect(r.status).toBe(201);
    expect(await r.json()).toMatchObject({
      box_id: expect.stringMatching(/^box_/),
      secret: expect.any(String),
    });
  });
});
