import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/**
 * spec 4.5: `extra_tools` "merges onto the resolved tools; extra wins a name collision",
 * also against a tool a server provides (issue 32 item 1). The box reads the session's
 * tools over the box API: the winning definition is the one it runs.
 */
describe('extra_tools wins a name collision with a server tool (spec 4.5)', () => {
  const h = useEmulator({ boxes: 0, allowInsecureUrls: true, mintRatePerMinute: 0 });
  const hook = 'http://127.0.0.1:9/hook';
  const extra = {
    inline: [
      {
        name: 'generate_image',
        description: 'Our own drawing tool',
        input_schema: { type: 'object', properties: { subject: { type: 'string' } } },
      },
    ],
  };
  let box: { box_id: string; secret: string };
  const ws = () => h.emu.keys.workspaceId;

  beforeAll(async () => {
    box = (await (await h.op('/_emulator/boxes', { method: 'POST' })).json()) as typeof box;
    const reg = await h.fetch(`/_internal/boxes/${box.box_id}/register`, {
      method: 'POST',
      key: box.secret,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        base_url: 'http://127.0.0.1:9',
        seats: 8,
        protocols: [1, 2],
        custom_avatars: true,
        verified: true,
      }),
    });
    expect(reg.status).toBe(200);
    await h.api(`/api/v1/workspaces/${ws()}/builtin-servers/svc.image`, {
      method: 'PUT',
      body: { enabled: true },
    });
  });

  /** The session's tools as its box reads them. */
  const boxTools = async (sessionId: string) => {
    const r = await h.fetch(`/_internal/boxes/${box.box_id}/sessions/${sessionId}/tools`, {
      key: box.secret,
    });
    expect(r.status).toBe(200);
    return ((await r.json()) as { tools: { name: string; source: string; description: string }[] })
      .tools;
  };

  const expectExtraWon = async (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect([...r.body.tools_resolved].sort()).toEqual(['edit_avatar', 'generate_image']);
    const tools = await boxTools(r.body.session_id);
    expect(tools.find((t) => t.name === 'generate_image')).toMatchObject({
      source: 'hook',
      description: 'Our own drawing tool',
    });
    expect(tools.find((t) => t.name === 'edit_avatar')).toMatchObject({ source: 'builtin' });
    expect(tools.filter((t) => t.name === 'generate_image')).toHaveLength(1);
  };

  it('against the servers of the mint`s own tools', async () => {
    const r = await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        agent: { hook },
        tools: { servers: ['svc.image'] },
        extra_tools: extra,
      },
    });
    await expectExtraWon(r);
  });

  it('against the servers of the profile`s stored tools_json', async () => {
    const a = await h.api('/api/v1/avatars', { body: { name: 'Drawer' } });
    await h.api(`/api/v1/avatars/${a.body.id}/versions`, { body: { source_persona: 'ava' } });
    const p = await h.api(`/api/v1/avatars/${a.body.id}/profiles`, {
      body: { system_prompt: 'You draw.', tools_json: { servers: ['svc.image'] } },
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const r = await h.api('/api/v1/sessions', {
      body: {
        avatar_id: a.body.id,
        profile_id: p.body.id,
        agent: { hook },
        extra_tools: extra,
      },
    });
    await expectExtraWon(r);
  });

  it('two tools of the same object still conflict (409)', async () => {
    const r = await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        agent: { hook },
        extra_tools: { servers: ['svc.image'], inline: extra.inline },
      },
    });
    expect(r).toMatchObject({ status: 409, body: { error: 'tool_name_conflict' } });
  });
});
