import { describe, expect, it } from 'vitest';
import { importJWK, jwtVerify, SignJWT, generateKeyPair } from 'jose';
import { KEY_PATTERN } from '../src/contract/keys.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator();

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe('workspaces', () => {
  it('lists the bound workspace, creates with plan free by default, renames', async () => {
    const key = h.emu.keys.secretKey;
    const list = await json(await h.fetch('/api/v1/workspaces', { key }));
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: any) => w.id)).toEqual([h.emu.keys.workspaceId]);

    const created = await json(
      await h.fetch('/api/v1/workspaces', {
        key,
        method: 'POST',
        body: JSON.stringify({ name: 'Team B' }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Team B', plan: 'free', updated_at: null });
    expect(created.body.owner_user_id).toBe(h.emu.keys.userId);

    // The dashboard key sees both workspaces of its user; the bound key still only its own.
    const all = await json(await h.fetch('/api/v1/workspaces', { key: h.emu.keys.dashboardKey }));
    expect(all.body.data.map((w: any) => w.name)).toEqual(['Default workspace', 'Team B']);

    const renamed = await json(
      await h.fetch(`/api/v1/workspaces/${created.body.id}`, {
        key: h.emu.keys.dashboardKey,
        method: 'PATCH',
        body: JSON.stringify({ name: 'Team C' }),
      }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Team C');
    expect(renamed.body.updated_at).toEqual(expect.any(Number));

    // A bound key cannot reach another workspace.
    const foreign = await h.fetch(`/api/v1/workspaces/${created.body.id}`, {
      key,
      method: 'PATCH',
      body: JSON.stringify({ name: 'x' }),
    });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error).toBe('forbidden');
  });

  it('refuses an empty name and an unknown plan with the envelope', async () => {
    for (const body of [{ name: '' }, { name: 'x', plan: 'platinum' }, {}]) {
      const r = await json(
        await h.fetch('/api/v1/workspaces', {
          key: h.emu.keys.secretKey,
          method: 'POST',
          body: JSON.stringify(body),
        }),
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.detail).toMatch(/^(name|plan)/);
    }
  });
});

describe('tokens', () => {
  it('returns the full token once, lists it by prefix only, and revokes it', async () => {
    const key = h.emu.keys.secretKey;
    const created = await json(
      await h.fetch('/api/v1/tokens', {
        key,
        method: 'POST',
        body: JSON.stringify({ name: 'ci', scopes: ['sessions:read'] }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(KEY_PATTERN);
    expect(created.body.token.startsWith('avatar_')).toBe(true);
    expect(created.body).toMatchObject({
      name: 'ci',
      kind: 'secret',
      scopes: ['sessions:read'],
      allowed_origins: null,
    });

    const list = await json(await h.fetch('/api/v1/tokens', { key }));
    const row = list.body.data.find((t: any) => t.id === created.body.id);
    expect(row).toMatchObject({
      token_prefix: created.body.token.slice(0, 8),
      status: 'active',
      workspace_id: h.emu.keys.workspaceId,
    });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);

    // The new key works for what its scope allows...
    expect((await h.fetch('/api/v1/tokens', { key: created.body.token })).status).toBe(403);
    const revoked = await json(
      await h.fetch(`/api/v1/tokens/${created.body.id}/revoke`, { key, method: 'POST' }),
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ ok: true, revoked_at: expect.any(Number) });
    // ...and nothing once revoked; revoking again answers the same time.
    const after = await json(await h.fetch('/api/v1/workspaces', { key: created.body.token }));
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('unauthorized');
    const again = await json(
      await h.fetch(`/api/v1/tokens/${created.body.id}/revoke`, { key, method: 'POST' }),
    );
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const listed = await json(await h.fetch('/api/v1/tokens', { key }));
    expect(listed.body.data.find((t: any) => t.id === created.body.id).status).toBe('revoked');
  });

  it('locks publishable keys to session:connect and requires an http(s) origin', async () => {
    const key = h.emu.keys.secretKey;
    const pk = await json(
      await h.fetch('/api/v1/tokens', {
        key,
        method: 'POST',
        body: JSON.stringify({
          name: 'web',
          kind: 'publishable',
          scopes: ['*'],
          allowedOrigins: ['https://app.example.com'],
        }),
      }),
    );
    expect(pk.status).toBe(201);
    expect(pk.body.token.startsWith('pk_')).toBe(true);
    expect(pk.body.scopes).toEqual(['session:connect']);
    expect(pk.body.allowed_origins).toEqual(['https://app.example.com']);
    const list = await json(await h.fetch('/api/v1/tokens', { key }));
    expect(list.body.data.find((t: any) => t.id === pk.body.id).allowed_origins).toBe(
      '["https://app.example.com"]',
    );

    for (const allowedOrigins of [undefined, [], ['ftp://x.example.com'], ['not a url']]) {
      const r = await json(
        await h.fetch('/api/v1/tokens', {
          key,
          method: 'POST',
          body: JSON.stringify({ name: 'web', kind: 'publishable', allowedOrigins }),
        }),
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.detail).toMatch(/^allowedOrigins/);
    }
  });

  it('creates unbound keys from the dashboard key and refuses workspace routes without workspace_id', async () => {
    const dash = h.emu.keys.dashboardKey;
    const k = await json(
      await h.fetch('/api/v1/tokens', {
        key: dash,
        method: 'POST',
        body: JSON.stringify({ name: 'unbound' }),
      }),
    );
    expect(k.status).toBe(201);
    const list = await json(await h.fetch('/api/v1/tokens', { key: dash }));
    expect(list.body.data.find((t: any) => t.id === k.body.id).workspace_id).toBeNull();
    // A bound key may not mint keys for a workspace it is not bound to.
    const other = await json(
      await h.fetch('/api/v1/workspaces', {
        key: dash,
        method: 'POST',
        body: JSON.stringify({ name: 'Other' }),
      }),
    );
    const r = await h.fetch('/api/v1/tokens', {
      key: h.emu.keys.secretKey,
      method: 'POST',
      body: JSON.stringify({ name: 'x', workspaceId: other.body.id }),
    });
    expect(r.status).toBe(403);
  });

  it('answers 404 for an unknown or foreign token id', async () => {
    const r = await json(
      await h.fetch(`/api/v1/tokens/${crypto.randomUUID()}/revoke`, {
        key: h.emu.keys.secretKey,
        method: 'POST',
      }),
    );
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('not_found');
  });
});

describe('devices', () => {
  it('creates a dt_ credential locked to session:connect, rotates and revokes it', async () => {
    const key = h.emu.keys.secretKey;
    const ws = h.emu.keys.workspaceId;
    const created = await json(
      await h.fetch(`/api/v1/workspaces/${ws}/devices`, {
        key,
        method: 'POST',
        body: JSON.stringify({ name: 'kiosk' }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.device).toMatchObject({
      name: 'kiosk',
      platform: 'other',
      status: 'active',
      workspace_id: ws,
    });
    expect(created.body.token).toMatch(/^dt_[0-9a-f]{8}\.[0-9a-f]{56}$/);

    // Locked to session:connect: any other route is forbidden, not unauthorized.
    const denied = await json(await h.fetch('/api/v1/workspaces', { key: created.body.token }));
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('forbidden');
    // Not listed among API keys.
    const tokens = await json(await h.fetch('/api/v1/tokens', { key }));
    expect(tokens.body.data.some((t: any) => t.kind === 'device')).toBe(false);

    const list = await json(await h.fetch(`/api/v1/workspaces/${ws}/devices`, { key }));
    const listed = list.body.data.find((d: any) => d.id === created.body.device.id);
    // Presenting the credential (even to a route it may not use) marks the device as seen.
    expect(created.body.device.last_seen_at).toBeNull();
    expect(listed.last_seen_at).toEqual(expect.any(Number));

    const rotated = await json(
      await h.fetch(`/api/v1/workspaces/${ws}/devices/${created.body.device.id}/rotate`, {
        key,
        method: 'POST',
      }),
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      token: expect.stringMatching(/^dt_/),
      rotated_at: expect.any(Number),
    });
    expect(rotated.body.token).not.toBe(created.body.token);
    expect((await h.fetch('/api/v1/workspaces', { key: created.body.token })).status).toBe(401);
    expect((await h.fetch('/api/v1/workspaces', { key: rotated.body.token })).status).toBe(403);

    const revoked = await json(
      await h.fetch(`/api/v1/workspaces/${ws}/devices/${created.body.device.id}/revoke`, {
        key,
        method: 'POST',
      }),
    );
    expect(revoked.body).toEqual({ ok: true, revoked_at: expect.any(Number) });
    expect((await h.fetch('/api/v1/workspaces', { key: rotated.body.token })).status).toBe(401);
    const after = await json(await h.fetch(`/api/v1/workspaces/${ws}/devices`, { key }));
    expect(after.body.data.find((d: any) => d.id === created.body.device.id)).toMatchObject({
      status: 'revoked',
      revoked_at: revoked.body.revoked_at,
    });
    const rerotate = await json(
      await h.fetch(`/api/v1/workspaces/${ws}/devices/${created.body.device.id}/rotate`, {
        key,
        method: 'POST',
      }),
    );
    expect(rerotate.status).toBe(409);
  });

  it('validates the platform', async () => {
    const r = await json(
      await h.fetch(`/api/v1/workspaces/${h.emu.keys.workspaceId}/devices`, {
        key: h.emu.keys.secretKey,
        method: 'POST',
        body: JSON.stringify({ name: 'x', platform: 'windows' }),
      }),
    );
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/^platform/);
  });
});

describe('trusted issuers', () => {
  it('creates with default algs [RS256], lists, refuses duplicates and deletes with 204', async () => {
    const key = h.emu.keys.secretKey;
    const base = `/api/v1/workspaces/${h.emu.keys.workspaceId}/trusted-issuers`;
    const body = {
      iss: 'https://id.example.com',
      aud: 'ios-app',
      jwks_uri: 'https://id.example.com/jwks',
    };
    const created = await json(
      await h.fetch(base, { key, method: 'POST', body: JSON.stringify(body) }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ...body,
      algs: ['RS256'],
      workspace_id: h.emu.keys.workspaceId,
    });
    expect((await h.fetch(base, { key, method: 'POST', body: JSON.stringify(body) })).status).toBe(
      409,
    );
    const bad = await json(
      await h.fetch(base, {
        key,
        method: 'POST',
        body: JSON.stringify({ ...body, algs: ['HS256'] }),
      }),
    );
    expect(bad.status).toBe(400);
    expect((await json(await h.fetch(base, { key }))).body.data).toHaveLength(1);
    const del = await h.fetch(`${base}/${created.body.id}`, { key, method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await h.fetch(`${base}/${created.body.id}`, { key, method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await json(await h.fetch(base, { key }))).body.data).toHaveLength(0);
  });
});

describe('gallery (public)', () => {
  it('lists at least four personas with every field', async () => {
    const r = await json(await h.fetch('/api/gallery'));
    expect(r.status).toBe(200);
    expect(r.body.avatars.length).toBeGreaterThanOrEqual(4);
    for (const p of r.body.avatars) {
      expect(Object.keys(p).sort()).toEqual([
        'accent',
        'blurb',
        'hasIntro',
        'id',
        'name',
        'poster',
        'tagline',
        'voiceLang',
      ]);
      expect(p.accent).toMatch(/^#[0-9a-f]{6}$/);
      // The poster path serves a real PNG.
      const face = await h.fetch(p.poster);
      expect(face.status).toBe(200);
      expect(face.headers.get('content-type')).toBe('image/png');
      const bytes = new Uint8Array(await face.arrayBuffer());
      expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
  });

  it('serves the intro MP4 with Range support and falls back to en', async () => {
    const whole = await h.fetch('/api/gallery/mei/intro?lang=en');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const en = Buffer.from(await whole.arrayBuffer());
    expect(en.subarray(4, 8).toString()).toBe('ftyp');

    const zh = Buffer.from(await (await h.fetch('/api/gallery/mei/intro?lang=zh')).arrayBuffer());
    expect(zh.equals(en)).toBe(false);
    const fr = Buffer.from(await (await h.fetch('/api/gallery/mei/intro?lang=fr')).arrayBuffer());
    expect(fr.equals(en)).toBe(true);

    const part = await h.fetch('/api/gallery/mei/intro', { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${en.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(en.subarray(100, 200))).toBe(true);
    const tail = await h.fetch('/api/gallery/mei/intro', { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(en.subarray(en.length - 10))).toBe(true);
    const out = await h.fetch('/api/gallery/mei/intro', {
      headers: { range: `bytes=${en.length + 5}-` },
    });
    expect(out.status).toBe(416);
    expect(out.headers.get('content-range')).toBe(`bytes */${en.length}`);
  });

  it('answers 404 in the envelope for an unknown persona', async () => {
    for (const path of ['/api/gallery/nobody/face', '/api/gallery/nobody/intro']) {
      const r = await json(await h.fetch(path));
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('not_found');
    }
  });
});

describe('JWKS', () => {
  it('serves the Ed25519 public key that verifies tokens signed by the control plane', async () => {
    const r = await json(await h.fetch('/.well-known/jwks.json'));
    expect(r.status).toBe(200);
    expect(r.body.keys).toHaveLength(1);
    const jwk = r.body.keys[0];
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwk.d).toBeUndefined();
    const { loadSigningKey } = await import('../src/emulator/signing/keys.js');
    const signing = await loadSigningKey(h.emu.ctx.db, h.baseUrl);
    const token = await signing.sign(
      { agent: { conv: 'c1' } },
      { nowSeconds: Math.floor(Date.now() / 1000), ttlSeconds: 60 },
    );
    const { payload } = await jwtVerify(token, await importJWK(jwk, 'EdDSA'), {
      issuer: h.baseUrl,
    });
    expect(payload.agent).toEqual({ conv: 'c1' });
    // A token signed with another key does not verify.
    const other = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(other.privateKey);
    await expect(jwtVerify(forged, await importJWK(jwk, 'EdDSA'))).rejects.toThrow();
  });
});
