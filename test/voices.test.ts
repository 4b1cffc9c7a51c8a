import { describe, expect, it } from 'vitest';
import { CreatedVoiceVersionSchema, VoiceSchema } from '../src/contract/resources/voice.js';
import { resolveVoiceRef } from '../src/emulator/avatars/resolve.js';
import { useEmulator, type ApiInit } from './helpers/emulator.js';
import { mp3, png, wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleMedia: false });

const api = (path: string, init?: ApiInit) => h.api(path, init);

const ws = () => h.emu.keys.workspaceId;

describe('voices (spec 4.8)', () => {
  it('creates (kind defaults to stock), lists, gets, renames and soft-deletes', async () => {
    const c = await api(`/api/v1/workspaces/${ws()}/voices`, {
      method: 'POST',
      body: { name: 'Narrator' },
    });
    expect(c.status).toBe(201);
    expect(VoiceSchema.strict().parse(c.body)).toBeTruthy();
    expect(c.body).toMatchObject({
      name: 'Narrator',
      kind: 'stock',
      workspace_id: ws(),
      current_version_id: null,
      status: 'draft',
      deleted_at: null,
    });
    expect(
      (await api(`/api/v1/workspaces/${ws()}/voices`)).body.data.map((v: any) => v.id),
    ).toContain(c.body.id);
    expect((await api(`/api/v1/workspaces/${ws()}/voices/${c.body.id}`)).body.name).toBe(
      'Narrator',
    );
    const up = await api(`/api/v1/workspaces/${ws()}/voices/${c.body.id}`, {
      method: 'PATCH',
      body: { name: 'Host' },
    });
    expect(up.body.name).toBe('Host');
    const del = await api(`/api/v1/workspaces/${ws()}/voices/${c.body.id}`, { method: 'DELETE' });
    expect(del.body).toMatchObject({ status: 'deleted', deleted_at: expect.any(Number) });
    expect(
      (await api(`/api/v1/workspaces/${ws()}/voices`)).body.data.map((v: any) => v.id),
    ).not.toContain(c.body.id);
    expect(
      (
        await api(`/api/v1/workspaces/${ws()}/voices/${c.body.id}`, {
          method: 'PATCH',
          body: { name: 'x' },
        })
      ).status,
    ).toBe(404);
  });

  it('serves the token-relative shape too', async () => {
    const c = await api('/api/v1/voices', {
      method: 'POST',
      body: { name: 'Rel', kind: 'cloned' },
    });
    expect(c.status).toBe(201);
    expect((await api('/api/v1/voices')).body.data.map((v: any) => v.id)).toContain(c.body.id);
    expect((await api(`/api/v1/voices/${c.body.id}`)).body.kind).toBe('cloned');
    expect((await api('/api/v1/voices', { key: h.emu.keys.dashboardKey })).body.error).toBe(
      'workspace_id_required',
    );
  });

  it('creates versions with an optional configJson, uploads a checked sample and makes it current', async () => {
    const v = (
      await api(`/api/v1/workspaces/${ws()}/voices`, {
        method: 'POST',
        body: { name: 'Clone', kind: 'cloned' },
      })
    ).body;
    const base = `/api/v1/workspaces/${ws()}/voices/${v.id}/versions`;
    const ver = await api(base, {
      method: 'POST',
      body: { configJson: JSON.stringify({ speed: 1.1 }) },
    });
    expect(ver.status).toBe(201);
    expect(CreatedVoiceVersionSchema.strict().parse(ver.body)).toBeTruthy();
    expect(ver.body).toMatchObject({
      voice_id: v.id,
      version_number: 1,
      sample_blob_key: null,
      external_voice_id: null,
      config_json: '{"speed":1.1}',
    });
    expect(ver.body.upload_url).toBe(`${base}/${ver.body.id}/sample`);
    const bare = await api(base, { method: 'POST', body: {} });
    expect(bare.body).toMatchObject({ version_number: 2, config_json: null });
    expect(await api(base, { method: 'POST', body: { configJson: 'not json' } })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });

    const up = await api(ver.body.upload_url, {
      method: 'PUT',
      raw: await mp3(8),
      type: 'audio/mpeg',
      headers: { 'x-ref-text': 'hello%20world' },
    });
    expect(up.status).toBe(200);
    expect(up.body.sample_blob_key).toMatch(/sample\.mp3$/);
    expect(up.body.ref_text).toBe('hello world');
    expect(up.body.external_voice_id).toMatch(/^ev_[0-9a-f]{24}$/);
    expect((await api(`/api/v1/workspaces/${ws()}/voices/${v.id}`)).body).toMatchObject({
      current_version_id: ver.body.id,
      status: 'active',
    });
    const list = await api(base);
    expect(list.body.data.map((x: any) => x.version_number)).toEqual([1, 2]);
    const back = await api(`${base}/${ver.body.id}/sample`);
    expect(back.type).toBe('audio/mpeg');
    expect(
      (await api(ver.body.upload_url, { method: 'PUT', raw: wav(6), type: 'audio/wav' })).status,
    ).toBe(409);

    const r = resolveVoiceRef(h.emu.ctx, ws(), ver.body.id);
    expect(r).toMatchObject({
      ok: true,
      value: { voice_id: v.id, sample: { content_type: 'audio/mpeg', ref_text: 'hello world' } },
    });
    expect(resolveVoiceRef(h.emu.ctx, 'other', ver.body.id)).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it('applies the same audio checks to samples', async () => {
    const v = (await api('/api/v1/voices', { method: 'POST', body: { name: 'Checked' } })).body;
    const ver = (await api(`/api/v1/voices/${v.id}/versions`, { method: 'POST', body: {} })).body;
    expect(
      await api(ver.upload_url, { method: 'PUT', raw: wav(3), type: 'audio/wav' }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_voice_sample', detail: 'too_short' } });
    expect(
      await api(ver.upload_url, { method: 'PUT', raw: wav(31), type: 'audio/wav' }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_voice_sample', detail: 'too_long' } });
    expect(
      await api(ver.upload_url, { method: 'PUT', raw: png(), type: 'image/png' }),
    ).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
    expect(
      await api(ver.upload_url, { method: 'PUT', raw: png(), type: 'audio/wav' }),
    ).toMatchObject({ status: 415 });
    expect(
      (await api(ver.upload_url, { method: 'PUT', raw: wav(5), type: 'audio/wav' })).status,
    ).toBe(200);
  });

  it('keeps voices private to their workspace and checks scopes', async () => {
    const v = (await api('/api/v1/voices', { method: 'POST', body: { name: 'Private' } })).body;
    const ws2 = (
      await api('/api/v1/workspaces', {
        method: 'POST',
        body: { name: 'W2' },
        key: h.emu.keys.dashboardKey,
      })
    ).body;
    const mk = async (scopes: string[], wsId: string) =>
      (
        await api('/api/v1/tokens', {
          method: 'POST',
          body: { name: 'k', scopes, workspaceId: wsId },
          key: h.emu.keys.dashboardKey,
        })
      ).body.token;
    const other = await mk(['*'], ws2.id);
    expect((await api(`/api/v1/voices/${v.id}`, { key: other })).status).toBe(404);
    expect((await api(`/api/v1/workspaces/${ws()}/voices`, { key: other })).status).toBe(403);
    const reader = await mk(['avatars:read'], ws());
    expect((await api('/api/v1/voices', { key: reader })).status).toBe(200);
    expect(
      (await api('/api/v1/voices', { method: 'POST', body: { name: 'n' }, key: reader })).status,
    ).toBe(403);
    expect((await api('/api/v1/workspaces/ws_stock/voices')).body).toEqual({ data: [] });
    expect(
      (await api('/api/v1/workspaces/ws_stock/voices', { method: 'POST', body: { name: 'n' } }))
        .body.error,
    ).toBe('stock_read_only');
  });
});
