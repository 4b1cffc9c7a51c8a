import { describe, expect, it } from 'vitest';
import {
  ProfileSchema,
  ProfileSummarySchema,
  CreatedProfileSchema,
} from '../src/contract/resources/profile.js';
import { resolveAvatar, resolveProfile } from '../src/emulator/avatars/resolve.js';
import { useEmulator, type ApiInit } from './helpers/emulator.js';

const h = useEmulator({ idleMedia: false });

const api = (path: string, init?: ApiInit) => h.api(path, init);

async function publishedAvatar(
  versionBody: Record<string, unknown> = {
    source_persona: 'ava',
    system_prompt: 'From the version.',
    backstory: 'Version backstory.',
  },
) {
  const a = (await api('/api/v1/avatars', { method: 'POST', body: { name: 'Profiled' } })).body;
  await api(`/api/v1/avatars/${a.id}/versions`, { method: 'POST', body: versionBody });
  return a.id as string;
}

const tools = {
  servers: ['svc.image'],
  inline: [
    {
      name: 'lookup',
      description: 'Find an order',
      input_schema: { type: 'object', properties: { id: { type: 'string' } } },
    },
  ],
  max_calls: 5,
};

describe('profiles (spec 4.9)', () => {
  it('synthesizes profile 1 lazily from the published version on first read', async () => {
    const id = await publishedAvatar();
    const list = await api(`/api/v1/avatars/${id}/profiles`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const p1 = list.body.data[0];
    expect(ProfileSummarySchema.strict().parse(p1)).toBeTruthy();
    expect(p1).toMatchObject({ is_default: true, created_by: 'system' });
    expect(list.body.default_profile_id).toBe(p1.id);
    const full = await api(`/api/v1/avatars/${id}/profiles/${p1.id}`);
    expect(full.body).toMatchObject({
      system_prompt: 'From the version.',
      backstory: 'Version backstory.',
      tools_json: null,
      config_json: null,
    });
    expect((await api(`/api/v1/avatars/${id}`)).body.default_profile_id).toBe(p1.id);
  });

  it('appends new content with 201 created: true and returns bodies only on the single profile', async () => {
    const id = await publishedAvatar();
    const r = await api(`/api/v1/avatars/${id}/profiles`, {
      method: 'POST',
      body: {
        system_prompt: 'Be brief.',
        backstory: 'A tester.',
        tools_json: tools,
        config_json: { greeting_hold_ms: 0 },
      },
    });
    expect(r.status).toBe(201);
    expect(CreatedProfileSchema.strict().parse(r.body)).toBeTruthy();
    expect(r.body).toMatchObject({ avatar_id: id, created: true, is_default: false });
    expect(r.body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.body.hash.startsWith(r.body.hash_short)).toBe(true);
    const list = await api(`/api/v1/avatars/${id}/profiles`);
    expect(list.body.data.map((p: any) => p.id)).toEqual([r.body.id, list.body.data[1].id]); // newest first
    expect(list.body.data[0]).not.toHaveProperty('system_prompt');
    expect(list.body.data[0].sizes).toEqual({
      system_prompt: 9,
      backstory: 9,
      tools_json: expect.any(Number),
      config_json: JSON.stringify({ greeting_hold_ms: 0 }).length,
    });
    const one = await api(`/api/v1/avatars/${id}/profiles/${r.body.id}`);
    expect(ProfileSchema.strict().parse(one.body)).toBeTruthy();
    expect(one.body).toMatchObject({
      system_prompt: 'Be brief.',
      tools_json: tools,
      config_json: { greeting_hold_ms: 0 },
    });
  });

  it('deduplicates by content hash: same content in another key order gives 200 created: false', async () => {
    const id = await publishedAvatar();
    const first = await api(`/api/v1/avatars/${id}/profiles`, {
      method: 'POST',
      body: {
        system_prompt: 'Same',
        tools_json: tools,
        config_json: { greeting_enabled: false, greeting_hold_ms: 100 },
      },
    });
    expect(first.status).toBe(201);
    const reordered = {
      config_json: { greeting_hold_ms: 100, greeting_enabled: false },
      tools_json: {
        max_calls: 5,
        inline: [
          {
            input_schema: { properties: { id: { type: 'string' } }, type: 'object' },
            description: 'Find an order',
            name: 'lookup',
          },
        ],
        servers: ['svc.image'],
      },
      system_prompt: 'Same',
    };
    const again = await api(`/api/v1/avatars/${id}/profiles`, { method: 'POST', body: reordered });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, hash: first.body.hash, created: false });
    // {key: null} is the same as absent (spec 2 null-drop).
    const nulls = await api(`/api/v1/avatars/${id}/profiles`, {
      method: 'POST',
      body: {
        ...reordered,
        config_json: { greeting_hold_ms: 100, greeting_enabled: false, render: null },
      },
    });
    expect(nulls.body).toMatchObject({ id: first.body.id, created: false });
    expect((await api(`/api/v1/avatars/${id}/profiles`)).body.data).toHaveLength(2);
  });

  it('set_default, switching default (rollback) and refusing to delete the default', async () => {
    const id = await publishedAvatar();
    const p1 = (await api(`/api/v1/avatars/${id}/profiles`)).body.data[0].id;
    const p2 = await api(`/api/v1/avatars/${id}/profiles`, {
      method: 'POST',
      body: { system_prompt: 'v2', set_default: true },
    });
    expect(p2.body).toMatchObject({ created: true, is_default: true });
    expect((await api(`/api/v1/avatars/${id}`)).body.default_profile_id).toBe(p2.body.id);
    expect(
      await api(`/api/v1/avatars/${id}/profiles/${p2.body.id}`, { method: 'DELETE' }),
    ).toMatchObject({
      status: 409,
      body: { error: 'profile_is_default' },
    });
    const back = await api(`/api/v1/avatars/${id}/profiles/${p1}/default`, { method: 'POST' });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({
      ok: true,
      avatar_id: id,
      default_profile_id: p1,
      hash_short: expect.any(String),
    });
    const del = await api(`/api/v1/avatars/${id}/profiles/${p2.body.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect((await api(`/api/v1/avatars/${id}/profiles/${p2.body.id}`)).status).toBe(404);
    // Re-posting deleted content appends it again.
    expect(
      (
        await api(`/api/v1/avatars/${id}/profiles`, {
          method: 'POST',
          body: { system_prompt: 'v2' },
        })
      ).status,
    ).toBe(201);
    // Identical content with set_default moves the default and still answers created: false.
    const same = await api(`/api/v1/avatars/${id}/profiles`, {
      method: 'POST',
      body: { system_prompt: 'v2', set_default: true },
    });
    expect(same.body).toMatchObject({ created: false, is_default: true });
  });

  it('validates config_json and tools_json with the codes of spec 7', async () => {
    const id = await publishedAvatar();
    const post = (body: unknown) => api(`/api/v1/avatars/${id}/profiles`, { method: 'POST', body });
    expect(await post({ config_json: { render: false } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_key_session_only:render' },
    });
    expect(await post({ config_json: { colour: 1 } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'unknown_config_key:colour' },
    });
    expect(await post({ config_json: { greeting_enabled: 'y' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_not_boolean:greeting_enabled' },
    });
    expect(await post({ config_json: { greeting_hold_ms: 9000 } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_out_of_range:greeting_hold_ms' },
    });
    expect(
      await post({ config_json: { greeting_enabled: true, pad: 'x'.repeat(1100) } }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_too_large' },
    });
    expect(await post({ tools_json: { bogus: 1 } })).toMatchObject({
      status: 400,
      body: { error: 'unknown_tools_field:bogus' },
    });
    expect(await post({ tools_json: { max_calls: 500 } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_max_calls' },
    });
    expect(
      await post({
        tools_json: {
          inline: [{ name: 'a b', description: 'd', input_schema: { type: 'object' } }],
        },
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_tool_name' } });
    expect(await post({ system_prompt: 42 })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
  });

  it('answers 403 stock_read_only on a stock avatar; reads stay open', async () => {
    const stock = (await api('/api/v1/workspaces/ws_stock/avatars')).body.data[0];
    const list = await api(`/api/v1/avatars/${stock.id}/profiles`);
    expect(list.status).toBe(200);
    const pid = list.body.default_profile_id;
    expect(pid).toEqual(expect.any(String));
    expect((await api(`/api/v1/avatars/${stock.id}/profiles/${pid}`)).body.system_prompt).toContain(
      'You are',
    );
    for (const r of [
      await api(`/api/v1/avatars/${stock.id}/profiles`, {
        method: 'POST',
        body: { system_prompt: 'x' },
      }),
      await api(`/api/v1/avatars/${stock.id}/profiles/${pid}/default`, { method: 'POST' }),
      await api(`/api/v1/avatars/${stock.id}/profiles/${pid}`, { method: 'DELETE' }),
      await api(`/api/v1/workspaces/ws_stock/avatars/${stock.id}/profiles`, {
        method: 'POST',
        body: {},
      }),
    ]) {
      expect(r).toMatchObject({ status: 403, body: { error: 'stock_read_only' } });
    }
  });

  it('needs avatars:write plus the custom_avatars feature to write, avatars:read to read', async () => {
    const id = await publishedAvatar();
    const mk = async (scopes: string[]) =>
      (
        await api('/api/v1/tokens', {
          method: 'POST',
          body: { name: 'k', scopes, workspaceId: h.emu.keys.workspaceId },
          key: h.emu.keys.dashboardKey,
        })
      ).body.token;
    const reader = await mk(['avatars:read']);
    const userWriter = await mk(['user:write', 'user:read']);
    expect((await api(`/api/v1/avatars/${id}/profiles`, { key: reader })).status).toBe(200);
    expect(
      await api(`/api/v1/avatars/${id}/profiles`, {
        method: 'POST',
        body: { system_prompt: 'r' },
        key: reader,
      }),
    ).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(
      (
        await api(`/api/v1/avatars/${id}/profiles`, {
          method: 'POST',
          body: { system_prompt: 'u' },
          key: userWriter,
        })
      ).status,
    ).toBe(201);
    h.emu.ctx.db
      .prepare(`UPDATE workspaces SET features = '[]' WHERE id = ?`)
      .run(h.emu.keys.workspaceId);
    try {
      expect(
        await api(`/api/v1/avatars/${id}/profiles`, {
          method: 'POST',
          body: { system_prompt: 'f' },
        }),
      ).toMatchObject({
        status: 403,
        body: { detail: 'missing_feature:custom_avatars' },
      });
    } finally {
      h.emu.ctx.db
        .prepare(`UPDATE workspaces SET features = '["custom_avatars"]' WHERE id = ?`)
        .run(h.emu.keys.workspaceId);
    }
  });

  it('works in the explicit workspace shape', async () => {
    const ws = h.emu.keys.workspaceId;
    const id = await publishedAvatar();
    const r = await api(`/api/v1/workspaces/${ws}/avatars/${id}/profiles`, {
      method: 'POST',
      body: { backstory: 'explicit' },
    });
    expect(r.status).toBe(201);
    expect(
      (await api(`/api/v1/workspaces/${ws}/avatars/${id}/profiles/${r.body.id}`)).body.backstory,
    ).toBe('explicit');
    expect((await api(`/api/v1/workspaces/${ws}/avatars/${id}/profiles`)).body.data).toHaveLength(
      2,
    );
    expect(
      (
        await api(`/api/v1/workspaces/${ws}/avatars/${id}/profiles/${r.body.id}/default`, {
          method: 'POST',
        })
      ).body.default_profile_id,
    ).toBe(r.body.id);
  });

  it('gives the mint resolver the frozen version and the default profile (resolve.ts)', async () => {
    const id = await publishedAvatar({
      source_persona: 'leo',
      system_prompt: 'v',
      config_json: { greeting_hold_ms: 10 },
    });
    const ctx = h.emu.ctx;
    const r = resolveAvatar(ctx, { workspaceId: h.emu.keys.workspaceId, avatar_id: id });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.version).toMatchObject({
      persona: 'leo',
      persona_voice: 'en-gb+m3',
      system_prompt: 'v',
      config: { greeting_hold_ms: 10 },
    });
    expect(r.value.defaultProfile).toMatchObject({
      source: 'default',
      profile: { system_prompt: 'v', config: { greeting_hold_ms: 10 } },
    });
    expect(resolveAvatar(ctx, { workspaceId: null, persona: 'mei' }).ok).toBe(true);
    expect(resolveAvatar(ctx, { workspaceId: null, persona: 'mei', avatar_id: id })).toMatchObject({
      ok: false,
      error: 'avatar_ref_persona_exclusive',
    });
    expect(resolveAvatar(ctx, { workspaceId: null, avatar_ref: id, avatar_id: id })).toMatchObject({
      ok: false,
      error: 'avatar_ref_avatar_id_exclusive',
    });
    const draft = (await api('/api/v1/avatars', { method: 'POST', body: { name: 'Draft' } })).body
      .id;
    expect(
      resolveAvatar(ctx, { workspaceId: h.emu.keys.workspaceId, avatar_id: draft }),
    ).toMatchObject({ ok: false, status: 400, error: 'avatar_not_published' });
    const v = (await api(`/api/v1/avatars/${draft}/versions`, { method: 'POST', body: {} })).body
      .id;
    expect(
      resolveAvatar(ctx, { workspaceId: h.emu.keys.workspaceId, avatar_ref: v }),
    ).toMatchObject({ ok: false, error: 'version_not_published' });
    expect(resolveAvatar(ctx, { workspaceId: 'someone-else', avatar_id: id })).toMatchObject({
      ok: false,
      status: 404,
    });
    const other = (await api('/api/v1/workspaces/ws_stock/avatars')).body.data[0];
    const otherProfile = (await api(`/api/v1/avatars/${other.id}/profiles`)).body
      .default_profile_id;
    expect(resolveProfile(ctx, id, otherProfile)).toMatchObject({
      ok: false,
      status: 400,
      error: 'profile_mismatch',
    });
  });
});
