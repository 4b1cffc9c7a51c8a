/**
 * POST /api/v1/prebuild (spec 4.10): 202 with one status per live box, mapped from the
 * version's idle media (the idle-media worker) and each box's reachability (a real probe of
 * its /health) and capabilities. Statuses: building, cached, persona_unavailable,
 * prebuild_unsupported, unreachable, error_<code>.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { stockVersionId } from '../src/emulator/avatars/stock.js';
import { addBox, issueBoxCredential } from '../src/emulator/fleet/spawn.js';
import { idleMediaFor } from '../src/emulator/idle-media/worker.js';
import { useEmulator, type EmulatorHandle } from './helpers/emulator.js';
import { png } from './helpers/avatar-media.js';

const prebuild = (h: EmulatorHandle, avatar_ref: unknown, key?: string) =>
  h.api('/api/v1/prebuild', { body: { avatar_ref }, key });

async function photoVersion(h: EmulatorHandle, publish = true): Promise<string> {
  const a = (await h.api('/api/v1/avatars', { body: { name: 'Photo', kind: 'custom' } })).body;
  const v = (await h.api(`/api/v1/avatars/${a.id}/versions`, { body: { system_prompt: 'hi' } }))
    .body;
  if (publish)
    expect((await h.api(v.upload_url, { raw: png(), type: 'image/png' })).status).toBe(200);
  return v.id;
}

/** Register a box over the internal box API whose base URL is `baseUrl` (a box in another process). */
async function registerBox(h: EmulatorHandle, baseUrl: string): Promise<string> {
  const { boxId, secret } = issueBoxCredential(h.emu.ctx);
  const r = await h.fetch(`/_internal/boxes/${boxId}/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      base_url: baseUrl,
      seats: 1,
      protocols: [1],
      custom_avatars: true,
      verified: true,
    }),
  });
  expect(r.status).toBe(200);
  return boxId;
}

describe('prebuild', () => {
  const h = useEmulator();

  it('a stock version whose loop is built is cached on the box (202, ok)', async () => {
    await idleMediaFor(h.emu.ctx).idle();
    const r = await prebuild(h, stockVersionId('ava'));
    expect(r.status).toBe(202);
    const box = (await h.op('/_emulator/boxes').then((x) => x.json())).data[0].id;
    expect(r.body).toEqual({
      ok: true,
      avatar_ref: stockVersionId('ava'),
      boxes: [{ box_id: box, status: 'cached' }],
    });
  });

  it('a freshly published photo version is building, then cached; a box without custom avatars cannot take it', async () => {
    const noCustom = await addBox(h.emu.ctx, { customAvatars: false });
    const id = await photoVersion(h);
    const first = await prebuild(h, id);
    expect(first.status).toBe(202);
    const byBox = (r: typeof first) =>
      Object.fromEntries(
        r.body.boxes.map((b: { box_id: string; status: string }) => [b.box_id, b.status]),
      );
    expect(byBox(first)[noCustom.id]).toBe('persona_unavailable');
    expect(Object.values(byBox(first)).filter((s) => s === 'building')).toHaveLength(1);
    expect(first.body.ok).toBe(true);
    await idleMediaFor(h.emu.ctx).idle();
    const later = await prebuild(h, id);
    expect(Object.values(byBox(later)).sort()).toEqual(['cached', 'persona_unavailable']);
    // the stock persona renders on every box
    expect(
      (await prebuild(h, stockVersionId('leo'))).body.boxes.every(
        (b: { status: string }) => b.status === 'cached',
      ),
    ).toBe(true);
  });

  it('a version whose idle build failed reports error_build_failed', async () => {
    const id = await photoVersion(h);
    await idleMediaFor(h.emu.ctx).idle();
    // As the worker records a failed build (idle-media-failure.test.ts drives a real one).
    h.emu.ctx.db
      .prepare(
        `UPDATE idle_media SET status = 'missing', error = 'ffmpeg exited 1' WHERE version_id = ?`,
      )
      .run(id);
    const r = await prebuild(h, id);
    expect(r.body.ok).toBe(false);
    expect(r.body.boxes.map((b: { status: string }) => b.status)).toContain('error_build_failed');
  });

  it('404 for an unknown version or one of another workspace; 400 for an unpublished one or a bad body', async () => {
    expect(await prebuild(h, '00000000-0000-4000-8000-000000000000')).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    const other = await h.api('/api/v1/workspaces', {
      body: { name: 'Elsewhere' },
      key: h.emu.keys.dashboardKey,
    });
    const a = await h.api(`/api/v1/workspaces/${other.body.id}/avatars`, {
      body: { name: 'theirs', kind: 'custom' },
      key: h.emu.keys.dashboardKey,
    });
    const v = await h.api(`/api/v1/workspaces/${other.body.id}/avatars/${a.body.id}/versions`, {
      body: { source_persona: 'ava' },
      key: h.emu.keys.dashboardKey,
    });
    expect(v.status).toBe(201);
    expect((await prebuild(h, v.body.id)).status).toBe(404);
    expect((await prebuild(h, v.body.id, h.emu.keys.dashboardKey)).status).toBe(202);
    expect(await prebuild(h, await photoVersion(h, false))).toMatchObject({
      status: 400,
      body: { error: 'version_not_published' },
    });
    expect(await prebuild(h, undefined)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', detail: expect.stringMatching(/^avatar_ref/) },
    });
    const t = await h.api('/api/v1/tokens', { body: { name: 'reader', scopes: ['avatars:read'] } });
    expect(await prebuild(h, stockVersionId('ava'), t.body.token)).toMatchObject({
      status: 403,
      body: { error: 'forbidden' },
    });
  });

  it('a box that does not answer is unreachable; one that answers an error is error_<status>', async () => {
    const sick = createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((r) => sick.listen(0, '127.0.0.1', r));
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    try {
      const sickId = await registerBox(
        h,
        `http://127.0.0.1:${(sick.address() as AddressInfo).port}`,
      );
      const goneId = await registerBox(h, `http://127.0.0.1:${closedPort}`);
      const r = await prebuild(h, stockVersionId('ava'));
      const byBox = Object.fromEntries(
        r.body.boxes.map((b: { box_id: string; status: string }) => [b.box_id, b.status]),
      );
      expect(byBox[sickId]).toBe('error_503');
      expect(byBox[goneId]).toBe('unreachable');
      expect(r.body.ok).toBe(true);
    } finally {
      await new Promise<void>((r) => sick.close(() => r()));
    }
  });
});

describe('prebuild without idle media', () => {
  const h = useEmulator({ idleMedia: false, boxes: 2 });
  it('every box answers prebuild_unsupported and ok is false', async () => {
    const r = await prebuild(h, stockVersionId('ava'));
    expect(r.status).toBe(202);
    expect(r.body.ok).toBe(false);
    expect(r.body.boxes.map((b: { status: string }) => b.status)).toEqual([
      'prebuild_unsupported',
      'prebuild_unsupported',
    ]);
  });
});

describe('prebuild with no box', () => {
  const h = useEmulator({ boxes: 0, idleMedia: false });
  it('202 with no boxes and ok false (skipping prebuild is safe)', async () => {
    expect(await prebuild(h, stockVersionId('ava'))).toMatchObject({
      status: 202,
      body: { ok: false, boxes: [] },
    });
  });
});
