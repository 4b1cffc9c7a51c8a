import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';
import { startMcpServer } from './helpers/mcp-server.js';

describe('MCP server registry (spec 4.11) against a real SDK server on loopback', () => {
  const h = useEmulator({ allowInsecureUrls: true });
  let mcp: Awaited<ReturnType<typeof startMcpServer>>;
  let authed: Awaited<ReturnType<typeof startMcpServer>>;
  beforeAll(async () => {
    mcp = await startMcpServer();
    authed = await startMcpServer({ requireBearer: 'sekrit-token' });
  });
  afterAll(async () => {
    await mcp.close();
    await authed.close();
  });
  const ws = () => h.emu.keys.workspaceId;
  const path = () => `/api/v1/workspaces/${ws()}/mcp-servers`;

  it('registers with a live probe: active, the tool list, tools_cached_at', async () => {
    const r = await h.api(path(), { body: { name: 'weather', url: mcp.url } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'weather',
      url: mcp.url,
      status: 'active',
      validation: { ok: true },
    });
    expect(r.body.id).toMatch(/^mcps_/);
    expect(r.body.tools.map((t: { name: string }) => t.name).sort()).toEqual([
      'get_weather',
      'lookup_order',
    ]);
    expect(typeof r.body.tools_cached_at).toBe('number');
    expect(r.body.last_error).toBeUndefined();
    const list = await h.api(path());
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(r.body.id);
  });

  it('a failing probe still creates the row: error with last_error; refresh makes it active', async () => {
    const r = await h.api(path(), { body: { name: 'locked', url: authed.url } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('error');
    expect(r.body.validation).toEqual({ ok: false });
    expect(r.body.last_error).toMatch(/401|Unauthorized|HTTP/i);
    const ok = await h.api(path(), {
      body: { name: 'locked', url: authed.url, auth: { kind: 'bearer', secret: 'sekrit-token' } },
    });
    expect(ok.body.status).toBe('active');
    expect(ok.body.auth).toEqual({ kind: 'bearer' });
    expect(JSON.stringify(ok.body)).not.toContain('sekrit-token');
    // error -> refresh -> active when the probe passes (spec 3)
    authed.state.failStatus = 0;
    const again = await h.api(`${path()}/${ok.body.id}/refresh`, { method: 'POST' });
    expect(again.body.status).toBe('active');
  });

  it('allowed_tools filters the list; PATCH disables; DELETE is always 204', async () => {
    const r = await h.api(path(), {
      body: { name: 'w', url: mcp.url, allowed_tools: ['get_weather'], default_timeout_ms: 3000 },
    });
    expect(r.body.tools.map((t: { name: string }) => t.name)).toEqual(['get_weather']);
    expect(r.body.default_timeout_ms).toBe(3000);
    const p = await h.api(`${path()}/${r.body.id}`, {
      method: 'PATCH',
      body: { status: 'disabled' },
    });
    expect(p.status).toBe(200);
    expect(p.body.status).toBe('disabled');
    const bad = await h.api(`${path()}/${r.body.id}`, {
      method: 'PATCH',
      body: { status: 'active' },
    });
    expect(bad.status).toBe(400);
    expect((await h.api(`${path()}/${r.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`${path()}/${r.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`${path()}/mcps_nothere`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.api(`${path()}/${r.body.id}`)).status).toBe(404);
  });

  it('auth kind header needs header; bearer needs a secret', async () => {
    const a = await h.api(path(), {
      body: { name: 'x', url: mcp.url, auth: { kind: 'header', secret: 's' } },
    });
    expect(a.status).toBe(400);
    expect(a.body.detail).toBe('auth.header: required');
    const b = await h.api(path(), { body: { name: 'x', url: mcp.url, auth: { kind: 'bearer' } } });
    expect(b.body.detail).toBe('auth.secret: required');
  });
});

describe('MCP URL rules without --allow-insecure-urls', () => {
  const h = useEmulator();
  it.each([
    ['http://mcp.example.com/mcp', 'url: must be https'],
    ['https://localhost/mcp', 'url: localhost is not allowed'],
    ['https://127.0.0.1/mcp', 'url: an IP literal is not allowed'],
    ['https://[::1]/mcp', 'url: an IP literal is not allowed'],
    ['https://tools.local/mcp', 'url: .local and .internal hosts are not allowed'],
    ['https://svc.internal/mcp', 'url: .local and .internal hosts are not allowed'],
  ])('%s is refused (%s)', async (url, detail) => {
    const r = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/mcp-servers`, {
      body: { name: 'x', url },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_request', detail });
    // each of these rules is lifted by the emulator's flag: the refusal says so
    expect(r.body.message).toContain('--allow-insecure-urls');
  });

  it('a URL that is not one is refused without the flag (it would not help)', async () => {
    const r = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/mcp-servers`, {
      body: { name: 'x', url: 'not a url' },
    });
    expect(r.body).toMatchObject({ error: 'invalid_request', detail: 'url: not a URL' });
    expect(r.body.message).not.toContain('--allow-insecure-urls');
  });
});
