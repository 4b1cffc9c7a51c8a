import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';
import { startMcpServer } from './helpers/mcp-server.js';
import { waitUntil } from './helpers/wait.js';

describe('tools at mint with the registry and built-ins (spec 4.5, 4.11, 7)', () => {
  const h = useEmulator({ allowInsecureUrls: true });
  let mcp: Awaited<ReturnType<typeof startMcpServer>>;
  beforeAll(async () => {
    mcp = await startMcpServer();
  });
  afterAll(() => mcp.close());
  const ws = () => h.emu.keys.workspaceId;
  const mint = (body: object) => h.api('/api/v1/sessions', { body: { persona: 'ava', ...body } });

  it('built-ins: list, 404 for an unknown key, 403 until enabled, then svc.image resolves', async () => {
    const list = await h.api(`/api/v1/workspaces/${ws()}/builtin-servers`);
    expect(list.body.data).toEqual([
      {
        key: 'svc.image',
        enabled: false,
        tools: [
          expect.objectContaining({ name: 'generate_image' }),
          expect.objectContaining({ name: 'edit_avatar' }),
        ],
      },
    ]);
    expect((await mint({ tools: { servers: ['svc.image'] } })).body.error).toBe(
      'builtin_server_not_enabled',
    );
    expect((await mint({ tools: { servers: ['svc.video'] } })).body.error).toBe(
      'builtin_server_not_found',
    );
    const put404 = await h.api(`/api/v1/workspaces/${ws()}/builtin-servers/svc.video`, {
      method: 'PUT',
      body: { enabled: true },
    });
    expect(put404).toMatchObject({ status: 404, body: { error: 'builtin_server_not_found' } });
    const put = await h.api(`/api/v1/workspaces/${ws()}/builtin-servers/svc.image`, {
      method: 'PUT',
      body: { enabled: true },
    });
    expect(put.body).toMatchObject({ key: 'svc.image', enabled: true });
    const ok = await mint({ tools: { servers: ['svc.image'] } });
    expect(ok.status).toBe(201);
    expect(ok.body.tools_resolved).toEqual(['generate_image', 'edit_avatar']);
  });

  it('a registered server resolves with allow; a conflict with an inline tool is 409', async () => {
    const s = await h.api(`/api/v1/workspaces/${ws()}/mcp-servers`, {
      body: { name: 'w', url: mcp.url },
    });
    const ok = await mint({ tools: { servers: [s.body.id], allow: ['get_weather'] } });
    expect(ok.body.tools_resolved).toEqual(['get_weather']);
    const clash = await mint({
      agent: { hook: 'http://127.0.0.1:9/hook' },
      tools: {
        servers: [s.body.id],
        inline: [{ name: 'get_weather', description: 'd', input_schema: { type: 'object' } }],
      },
    });
    expect(clash).toMatchObject({ status: 409, body: { error: 'tool_name_conflict' } });
  });

  it('a server never listed is 409 mcp_server_unavailable; a disabled one 400 mcp_server_not_found', async () => {
    const down = await startMcpServer({ requireBearer: 'x' });
    const s = await h.api(`/api/v1/workspaces/${ws()}/mcp-servers`, {
      body: { name: 'down', url: down.url },
    });
    await down.close();
    expect(s.body.status).toBe('error');
    expect((await mint({ tools: { servers: [s.body.id] } })).body.error).toBe(
      'mcp_server_unavailable',
    );
    const t = await h.api(`/api/v1/workspaces/${ws()}/mcp-servers`, {
      body: { name: 'w2', url: mcp.url },
    });
    await h.api(`/api/v1/workspaces/${ws()}/mcp-servers/${t.body.id}`, {
      method: 'PATCH',
      body: { status: 'disabled' },
    });
    expect((await mint({ tools: { servers: [t.body.id] } })).body.error).toBe(
      'mcp_server_not_found',
    );
  });

  it('a list older than 10 min is used and refreshed in the background (stale-while-revalidate)', async () => {
    const s = await h.api(`/api/v1/workspaces/${ws()}/mcp-servers`, {
      body: { name: 'swr', url: mcp.url },
    });
    h.emu.ctx.db
      .prepare('UPDATE mcp_servers SET tools_cached_at = tools_cached_at - 700 WHERE id = ?')
      .run(s.body.id);
    const before = (await h.api(`/api/v1/workspaces/${ws()}/mcp-servers/${s.body.id}`)).body
      .tools_cached_at as number;
    const ok = await mint({ tools: { servers: [s.body.id] } });
    expect(ok.status).toBe(201);
    await waitUntil(
      async () =>
        (await h.api(`/api/v1/workspaces/${ws()}/mcp-servers/${s.body.id}`)).body.tools_cached_at >
        before,
    );
  });

  it('an input_schema that is not valid JSON Schema is refused (ajv), with the keyword named', async () => {
    const hook = { hook: 'http://127.0.0.1:9/hook' };
    const typo = await mint({
      agent: hook,
      tools: {
        inline: [
          {
            name: 't',
            description: 'd',
            input_schema: { type: 'object', properties: { a: { type: 'strnig' } } },
          },
        ],
      },
    });
    expect(typo).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(typo.body.detail).toMatch(/^tools\.inline\.t\.input_schema: \/properties\/a\/type/);
    const req = await mint({
      agent: hook,
      tools: {
        inline: [{ name: 't', description: 'd', input_schema: { type: 'object', required: 'a' } }],
      },
    });
    expect(req.body.detail).toMatch(/^tools\.inline\.t\.input_schema: \/required: must be array/);
  });
});
