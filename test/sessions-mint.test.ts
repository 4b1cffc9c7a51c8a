import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { runningBoxes } from '../src/emulator/fleet/spawn.js';
import { useEmulator } from './helpers/emulator.js';

/** The 201 of spec 4.5: shape, token, frozen snapshot, protocol negotiation, tools_resolved, caps. */
const h = useEmulator({ seats: 20, mintRatePerMinute: 0 });
const ORIGIN = 'http://app.test';
const V1_KEYS = [
  'status',
  'session_id',
  'connect_url',
  'session_token',
  'seat_token',
  'expires_at',
  'cap_seconds',
  'profile',
];

beforeAll(() => {
  const db = h.emu.ctx.db;
  const ws = h.emu.keys.workspaceId;
  db.prepare(
    `INSERT INTO mcp_servers (id, workspace_id, name, url, status, tools_json, tools_cached_at, created_at) VALUES (?, ?, ?, ?, 'active', ?, 0, 0)`,
  ).run(
    'mcps_weather',
    ws,
    'weather',
    'https://mcp.example/weather',
    JSON.stringify([{ name: 'forecast' }, { name: 'lookup' }]),
  );
  db.prepare(
    `INSERT INTO builtin_servers (workspace_id, server_key, enabled, updated_at) VALUES (?, 'svc.image', 1, 0)`,
  ).run(ws);
});

async function mint(body: Record<string, unknown>, client = h.client) {
  const r = await client.send('sessions.mint', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  // free the seat so the plan's concurrency ceiling never interferes
  await client.send('sessions.release', {
    params: { sessionId: r.body.session_id },
    body: { seat_token: r.body.seat_token },
  });
  return r.body;
}

describe('session mint 201 (spec 4.5)', () => {
  it('answers the v1-era shape; the session token is an EdDSA JWT verifiable through the JWKS', async () => {
    const agent = { hook: 'https://tenant.example/hook', tok: 'secret-tok', conv: 'c-1', v: 3 };
    const m = await mint({
      persona: 'ava',
      agent,
      extra_system_prompt: 'Speak slowly.',
      response_language: 'pt-BR',
      metadata: { order: 7 },
    });
    expect(Object.keys(m)).toEqual(V1_KEYS);
    expect(m).toMatchObject({ status: 'ready', cap_seconds: 300 });
    expect(['default', 'none']).toContain(m.profile.source);
    expect(m.seat_token).toMatch(/^seat_/);
    expect(runningBoxes(h.emu.ctx).map((b) => b.baseUrl)).toContain(m.connect_url);
    const jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', h.baseUrl));
    const aud = decodeJwt(m.session_token).aud as string;
    const { payload, protectedHeader } = await jwtVerify(m.session_token, jwks, {
      issuer: h.baseUrl,
      audience: aud,
    });
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload.exp).toBe(m.expires_at);
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(payload.sub).toBe(m.session_id);
    expect(payload.agent).toEqual(agent);
    const s = payload.session as Record<string, any>;
    expect(s.system_prompt).toMatch(/You are Ava[\s\S]*Speak slowly\.$/);
    expect(s).toMatchObject({
      response_language: 'pt-BR',
      metadata: { order: 7 },
      protocol: 1,
      cap_seconds: 300,
      recording: false,
    });
    expect(s.config).toEqual({ greeting_enabled: true, greeting_hold_ms: 2000, render: true });
  });

  it('a lookup right after the mint shows pending', async () => {
    const r = await h.client.call('sessions.mint', { body: { persona: 'leo' } });
    const first = await h.client.call('sessions.get', { params: { sessionId: r.body.session_id } });
    expect(first.body.status).toBe('pending');
    await h.client.call('sessions.release', { params: { sessionId: r.body.session_id }, body: {} });
    const m = r.body;
    const g = await h.client.call('sessions.get', { params: { sessionId: m.session_id } });
    expect(g.body).toMatchObject({ id: m.session_id, workspace_id: h.emu.keys.workspaceId });
    expect(g.body.avatar_ref).toEqual(expect.any(String));
    expect(m.connect_url).toContain(g.body.box_host);
  });

  it('protocol_versions [2] adds protocol_version; omitting it keeps the v1 response', async () => {
    const v2 = await mint({ persona: 'ava', protocol_versions: [2] });
    expect(Object.keys(v2)).toEqual([...V1_KEYS, 'protocol_version']);
    expect(v2.protocol_version).toBe(2);
    expect((decodeJwt(v2.session_token).session as { protocol: number }).protocol).toBe(2);
    const v1 = await mint({ persona: 'ava', protocol_versions: [1] });
    expect(v1.protocol_version).toBe(1);
  });

  it('resolves tools from servers, built-ins and inline definitions into tools_resolved; extra_tools wins', async () => {
    const hook = { hook: 'https://tenant.example/hook' };
    const def = (name: string, description = 'd') => ({
      name,
      description,
      input_schema: { type: 'object' },
    });
    const m = await mint({
      persona: 'ava',
      agent: hook,
      tools: { servers: ['mcps_weather', 'svc.image'], inline: [def('book', 'old')] },
      extra_tools: { inline: [def('book', 'new'), def('cancel')], max_calls: 5 },
      config: { greeting_enabled: false },
    });
    expect(m.tools_resolved).toEqual([
      'forecast',
      'lookup',
      'generate_image',
      'edit_avatar',
      'book',
      'cancel',
    ]);
    const s = decodeJwt(m.session_token).session as Record<string, any>;
    expect(s.tools.inline.find((t: { name: string }) => t.name === 'book').description).toBe('new');
    expect(s.tools).toMatchObject({ max_calls: 5, history: true });
    expect(s.config.greeting_enabled).toBe(false);
    const allowed = await mint({
      persona: 'ava',
      tools: { servers: ['mcps_weather'], allow: ['lookup'] },
    });
    expect(allowed.tools_resolved).toEqual(['lookup']);
  });

  it('grants session_cap_seconds within the plan', async () => {
    expect((await mint({ persona: 'ava', session_cap_seconds: 120 })).cap_seconds).toBe(120);
    expect((await mint({ persona: 'ava', session_cap_seconds: 3600 })).cap_seconds).toBe(3600);
  });

  it('publishable keys mint stock personas; domain_allowlist is forced to the key origins', async () => {
    const p = await h.client.call('tokens.create', {
      body: { name: 'web', kind: 'publishable', allowedOrigins: [ORIGIN] },
    });
    const m = await mint(
      { persona: 'mei', domain_allowlist: ['https://evil.example'] },
      h.as(p.body.token, ORIGIN),
    );
    expect(
      (decodeJwt(m.session_token).session as { domain_allowlist: string[] }).domain_allowlist,
    ).toEqual([ORIGIN]);
    const own = await mint({ persona: 'mei', domain_allowlist: ['https://shop.example'] });
    expect(
      (decodeJwt(own.session_token).session as { domain_allowlist: string[] }).domain_allowlist,
    ).toEqual(['https://shop.example']);
  });

  it('a persona works without a workspace (unbound key)', async () => {
    const m = await mint({ persona: 'sam' }, h.as(h.emu.keys.dashboardKey));
    const g = await h
      .as(h.emu.keys.dashboardKey)
      .call('sessions.get', { params: { sessionId: m.session_id } });
    expect(g.body.workspace_id).toBeNull();
  });

  it('observability false silences session logs; recording true opts into capture', async () => {
    const m = await mint({ persona: 'ava', recording: true, observability: false });
    expect(decodeJwt(m.session_token).session).toMatchObject({
      recording: true,
      session_logs: false,
    });
    const o = await mint({ persona: 'ava', observability: true });
    expect(decodeJwt(o.session_token).session).toMatchObject({
      recording: true,
      session_logs: true,
    });
  });
});
