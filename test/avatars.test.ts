import { describe, expect, it } from 'vitest';
import {
  AvatarSchema,
  AvatarVersionSchema,
  CreatedAvatarVersionSchema,
} from '../src/contract/resources/avatar.js';
import { useEmulator, type ApiInit } from './helpers/emulator.js';
import { png } from './helpers/avatar-media.js';

const h = useEmulator({ idleMedia: false });

const api = (path: string, init?: ApiInit) => h.api(path, init);

async function newKey(scopes: string[], workspaceId?: string) {
  const r = await api('/api/v1/tokens', {
    method: 'POST',
    body: { name: 'k', scopes, ...(workspaceId ? { workspaceId } : {}) },
    key: h.emu.keys.dashboardKey,
  });
  return r.body.token as string;
}

describe('avatars (spec 4.7)', () => {
  it('creates with kind defaulting to stock and reports every Avatar field', async () => {
    const r = await api('/api/v1/avatars', { method: 'POST', body: { name: 'Nova' } });
    expect(r.status).toBe(201);
    expect(AvatarSchema.strict().parse(r.body)).toBeTruthy();
    expect(r.body).toMatchObject({
      name: 'Nova',
      kind: 'stock',
      workspace_id: h.emu.keys.workspaceId,
      current_version_id: null,
      deleted_at: null,
      assets_status: 'missing',
      default_profile_id: null,
      status: 'draft',
    });
    expect(typeof r.body.region_tag).toBe('string');
  });

  it('lists, gets, renames and soft-deletes in the token-relative shape', async () => {
    const { body: a } = await api('/api/v1/avatars', {
      method: 'POST',
      body: { name: 'Temp', kind: 'custom' },
    });
    const list = await api('/api/v1/avatars');
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: any) => x.id)).toContain(a.id);
    expect((await api(`/api/v1/avatars/${a.id}`)).body.kind).toBe('custom');
    const renamed = await api(`/api/v1/avatars/${a.id}`, {
      method: 'PATCH',
      body: { name: 'Renamed' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    const del = await api(`/api/v1/avatars/${a.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body.deleted_at).toEqual(expect.any(Number));
    expect(del.body.status).toBe('deleted');
    // Soft: still readable with deleted_at; hidden from the list unless asked; delete repeats.
    expect((await api(`/api/v1/avatars/${a.id}`)).body.deleted_at).toBe(del.body.deleted_at);
    expect((await api('/api/v1/avatars')).body.data.map((x: any) => x.id)).not.toContain(a.id);
    expect(
      (await api('/api/v1/avatars?include_deleted=true')).body.data.map((x: any) => x.id),
    ).toContain(a.id);
    expect((await api(`/api/v1/avatars/${a.id}`, { method: 'DELETE' })).body.deleted_at).toBe(
      del.body.deleted_at,
    );
    expect(
      (await api(`/api/v1/avatars/${a.id}`, { method: 'PATCH', body: { name: 'x' } })).status,
    ).toBe(404);
  });

  it('serves the same avatars in the explicit workspace shape', async () => {
    const ws = h.emu.keys.workspaceId;
    const c = await api(`/api/v1/workspaces/${ws}/avatars`, {
      method: 'POST',
      body: { name: 'Explicit' },
    });
    expect(c.status).toBe(201);
    expect(
      (await api(`/api/v1/workspaces/${ws}/avatars`)).body.data.map((x: any) => x.id),
    ).toContain(c.body.id);
    expect((await api(`/api/v1/workspaces/${ws}/avatars/${c.body.id}`)).body.name).toBe('Explicit');
    expect(
      (
        await api(`/api/v1/workspaces/${ws}/avatars/${c.body.id}`, {
          method: 'PATCH',
          body: { name: 'E2' },
        })
      ).body.name,
    ).toBe('E2');
    expect(
      (await api(`/api/v1/workspaces/${ws}/avatars/${c.body.id}`, { method: 'DELETE' })).body
        .deleted_at,
    ).toEqual(expect.any(Number));
  });

  it('needs workspace_id for a dashboard key on the token-relative shape (spec 5.2)', async () => {
    const key = h.emu.keys.dashboardKey;
    expect(await api('/api/v1/avatars', { key })).toMatchObject({
      status: 400,
      body: { error: 'workspace_id_required' },
    });
    const ok = await api(`/api/v1/avatars?workspace_id=${h.emu.keys.workspaceId}`, { key });
    expect(ok.status).toBe(200);
    const made = await api(`/api/v1/avatars?workspace_id=${h.emu.keys.workspaceId}`, {
      method: 'POST',
      body: { name: 'D' },
      key,
    });
    expect(made.status).toBe(201);
  });

  it('validates bodies and ids with the spec envelope', async () => {
    expect(await api('/api/v1/avatars', { method: 'POST', body: { name: '' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(
      await api('/api/v1/avatars', {
        method: 'POST',
        raw: new TextEncoder().encode('{nope'),
        type: 'application/json',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_json' } });
    expect((await api('/api/v1/avatars/not-a-uuid')).status).toBe(404);
    expect((await api('/api/v1/avatars/00000000-0000-4000-8000-000000000000')).body.error).toBe(
      'not_found',
    );
  });

  it('enforces scopes: avatars:read for reads, avatars:write for writes', async () => {
    const reader = await newKey(['avatars:read'], h.emu.keys.workspaceId);
    expect((await api('/api/v1/avatars', { key: reader })).status).toBe(200);
    const w = await api('/api/v1/avatars', { method: 'POST', body: { name: 'x' }, key: reader });
    expect(w).toMatchObject({
      status: 403,
      body: { error: 'forbidden', detail: 'missing_scope:avatars:write' },
    });
    const none = await newKey(['sessions:write'], h.emu.keys.workspaceId);
    expect((await api('/api/v1/avatars', { key: none })).status).toBe(403);
    expect(
      (await api('/api/v1/avatars', { key: 'avatar_00000000.' + '0'.repeat(56) })).status,
    ).toBe(401);
  });

  it('hides avatars of other workspaces', async () => {
    const ws2 = await api('/api/v1/workspaces', {
      method: 'POST',
      body: { name: 'Other' },
      key: h.emu.keys.dashboardKey,
    });
    const other = await newKey(['*'], ws2.body.id);
    const { body: mine } = await api('/api/v1/avatars', { method: 'POST', body: { name: 'Mine' } });
    expect((await api(`/api/v1/avatars/${mine.id}`, { key: other })).status).toBe(404);
    expect(
      (await api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/avatars`, { key: other })).status,
    ).toBe(403);
    expect((await api('/api/v1/avatars', { key: other })).body.data).toEqual([]);
  });
});

describe('stock avatars in ws_stock', () => {
  it('lists the four personas with stable ids, published and readable by every key', async () => {
    const r = await api('/api/v1/workspaces/ws_stock/avatars');
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: any) => a.name).sort()).toEqual(['Ava', 'Leo', 'Mei', 'Sam']);
    for (const a of r.body.data) {
      expect(a).toMatchObject({ workspace_id: 'ws_stock', kind: 'stock', status: 'active' });
      expect(a.current_version_id).toEqual(expect.any(String));
    }
    const ws2 = await api('/api/v1/workspaces', {
      method: 'POST',
      body: { name: 'Reader' },
      key: h.emu.keys.dashboardKey,
    });
    const other = await newKey(['avatars:read'], ws2.body.id);
    const again = await api('/api/v1/workspaces/ws_stock/avatars', { key: other });
    expect(again.body.data.map((a: any) => a.id)).toEqual(r.body.data.map((a: any) => a.id));
    const ava = r.body.data.find((a: any) => a.name === 'Ava');
    const v = await api(`/api/v1/avatars/${ava.id}/versions`, { key: other });
    expect(v.body.data[0]).toMatchObject({
      source_persona: 'ava',
      version_number: 1,
      published_at: expect.any(Number),
    });
    expect(v.body.data[0].image_blob_key).not.toBeNull();
  });

  it('refuses every mutation with 403 stock_read_only', async () => {
    const { body } = await api('/api/v1/workspaces/ws_stock/avatars');
    const a = body.data[0];
    const vid = a.current_version_id;
    const attempts = [
      api('/api/v1/workspaces/ws_stock/avatars', { method: 'POST', body: { name: 'x' } }),
      api(`/api/v1/avatars/${a.id}`, { method: 'PATCH', body: { name: 'x' } }),
      api(`/api/v1/avatars/${a.id}`, { method: 'DELETE' }),
      api(`/api/v1/avatars/${a.id}/versions`, { method: 'POST', body: {} }),
      api(`/api/v1/avatars/${a.id}/versions/${vid}/upload`, {
        raw: new Uint8Array(png()),
        type: 'image/png',
      }),
      api(`/api/v1/avatars/${a.id}/profiles`, { method: 'POST', body: { system_prompt: 'x' } }),
    ];
    for (const r of await Promise.all(attempts))
      expect(r).toMatchObject({ status: 403, body: { error: 'stock_read_only' } });
  });
});

describe('versions (spec 4.7)', () => {
  it('creates a version with every body field, answering the version plus upload_url', async () => {
    const { body: a } = await api('/api/v1/avatars', {
      method: 'POST',
      body: { name: 'Versioned', kind: 'custom' },
    });
    const r = await api(`/api/v1/avatars/${a.id}/versions`, {
      method: 'POST',
      body: {
        system_prompt: 'You are Versioned.',
        config_json: { greeting_enabled: false, greeting_hold_ms: 500 },
        description: 'test avatar',
        backstory: 'Born in a test.',
        native_language: 'en-GB',
        voice_ref_text: 'hello there',
      },
    });
    expect(r.status).toBe(201);
    expect(CreatedAvatarVersionSchema.strict().parse(r.body)).toBeTruthy();
    expect(r.body).toMatchObject({
      avatar_id: a.id,
      version_number: 1,
      image_blob_key: null,
      system_prompt: 'You are Versioned.',
      description: 'test avatar',
      backstory: 'Born in a test.',
      native_language: 'en-GB',
      voice_ref_text: 'hello there',
      published_at: null,
      upload_url: `/api/v1/avatars/${a.id}/versions/${r.body.id}/upload`,
    });
    expect(JSON.parse(r.body.config_json)).toEqual({
      greeting_enabled: false,
      greeting_hold_ms: 500,
    });
    // Not published until the face lands.
    expect((await api(`/api/v1/avatars/${a.id}`)).body.current_version_id).toBeNull();
    const list = await api(`/api/v1/avatars/${a.id}/versions`);
    expect(list.body.data.map((v: any) => AvatarVersionSchema.strict().parse(v).id)).toEqual([
      r.body.id,
    ]);
    expect((await api(`/api/v1/avatars/${a.id}/versions/${r.body.id}`)).body.id).toBe(r.body.id);
  });

  it('source_persona publishes at once; inherit_image carries the face and promotes', async () => {
    const { body: a } = await api('/api/v1/avatars', {
      method: 'POST',
      body: { name: 'Persona-based' },
    });
    const v1 = await api(`/api/v1/avatars/${a.id}/versions`, {
      method: 'POST',
      body: { source_persona: 'mei', system_prompt: 'v1' },
    });
    expect(v1.body).toMatchObject({
      version_number: 1,
      source_persona: 'mei',
      published_at: expect.any(Number),
    });
    expect(v1.body.image_blob_key).not.toBeNull();
    expect((await api(`/api/v1/avatars/${a.id}`)).body).toMatchObject({
      current_version_id: v1.body.id,
      status: 'active',
    });
    const v2 = await api(`/api/v1/avatars/${a.id}/versions`, {
      method: 'POST',
      body: { inherit_image: true, system_prompt: 'v2' },
    });
    expect(v2.body).toMatchObject({
      version_number: 2,
      image_blob_key: v1.body.image_blob_key,
      published_at: expect.any(Number),
    });
    expect((await api(`/api/v1/avatars/${a.id}`)).body.current_version_id).toBe(v2.body.id);
    // Without inherit_image the new version waits for its own face.
    const v3 = await api(`/api/v1/avatars/${a.id}/versions`, {
      method: 'POST',
      body: { system_prompt: 'v3' },
    });
    expect(v3.body.published_at).toBeNull();
    expect((await api(`/api/v1/avatars/${a.id}`)).body.current_version_id).toBe(v2.body.id);
  });

  it('inherit_image with no face to inherit leaves the version unpublished', async () => {
    const { body: a } = await api('/api/v1/avatars', { method: 'POST', body: { name: 'Bare' } });
    const v = await api(`/api/v1/avatars/${a.id}/versions`, {
      method: 'POST',
      body: { inherit_image: true },
    });
    expect(v.status).toBe(201);
    expect(v.body).toMatchObject({ image_blob_key: null, published_at: null });
  });

  it('refuses a bad config_json with invalid_config_json and an unknown persona', async () => {
    const { body: a } = await api('/api/v1/avatars', { method: 'POST', body: { name: 'Bad' } });
    const base = `/api/v1/avatars/${a.id}/versions`;
    expect(
      await api(base, { method: 'POST', body: { config_json: { render: false } } }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_key_session_only:render' },
    });
    expect(await api(base, { method: 'POST', body: { config_json: { nope: 1 } } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'unknown_config_key:nope' },
    });
    expect(await api(base, { method: 'POST', body: { source_persona: 'zed' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(
      (await api(base, { method: 'POST', body: { source_persona: 'ava', inherit_image: true } }))
        .status,
    ).toBe(400);
  });

  it('works in the explicit shape, with an explicit upload_url', async () => {
    const ws = h.emu.keys.workspaceId;
    const { body: a } = await api(`/api/v1/workspaces/${ws}/avatars`, {
      method: 'POST',
      body: { name: 'X' },
    });
    const v = await api(`/api/v1/workspaces/${ws}/avatars/${a.id}/versions`, {
      method: 'POST',
      body: {},
    });
    expect(v.body.upload_url).toBe(
      `/api/v1/workspaces/${ws}/avatars/${a.id}/versions/${v.body.id}/upload`,
    );
    const up = await api(v.body.upload_url, { raw: new Uint8Array(png()), type: 'image/png' });
    expect(up.status).toBe(200);
    expect(
      (await api(`/api/v1/workspaces/${ws}/avatars/${a.id}/versions`)).body.data[0].published_at,
    ).toEqual(expect.any(Number));
  });
});
