import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../src/emulator/start.js';
import { png } from './helpers/avatar-media.js';

const dir = mkdtempSync(join(tmpdir(), 'avatar-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withEmulator<T>(
  fn: (call: (path: string, init?: RequestInit) => Promise<any>) => Promise<T>,
): Promise<T> {
  const emu = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleSeconds: 1 });
  try {
    return await fn(async (path, init = {}) => {
      const res = await fetch(emu.baseUrl + path, {
        ...init,
        headers: { authorization: `Bearer ${emu.keys.secretKey}`, ...(init.headers as object) },
      });
      const type = res.headers.get('content-type') ?? '';
      return {
        status: res.status,
        body: type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer()),
      };
    });
  } finally {
    await emu.stop();
  }
}

async function waitReady(call: (p: string) => Promise<any>, id: string) {
  for (let i = 0; i < 400; i++) {
    if ((await call(`/api/v1/avatars/${id}`)).body.assets_status === 'ready') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('idle media never ready');
}

describe('avatars across a restart on the same data dir', () => {
  it('keeps avatars, blobs, idle media and the stock ids', async () => {
    const first = await withEmulator(async (call) => {
      const a = (
        await call('/api/v1/avatars', {
          method: 'POST',
          body: JSON.stringify({ name: 'Kept' }),
          headers: { 'content-type': 'application/json' },
        })
      ).body;
      const v = (
        await call(`/api/v1/avatars/${a.id}/versions`, {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).body;
      await call(v.upload_url, {
        method: 'PUT',
        body: new Uint8Array(png()),
        headers: { 'content-type': 'image/png' },
      });
      await waitReady(call, a.id);
      const stock = (await call('/api/v1/workspaces/ws_stock/avatars')).body.data.map(
        (x: any) => x.id,
      );
      const clip = (await call(`/api/v1/avatars/${a.id}/versions/${v.id}/idle`)).body as Buffer;
      return { a, v, stock, clip };
    });
    await withEmulator(async (call) => {
      const a = (await call(`/api/v1/avatars/${first.a.id}`)).body;
      expect(a).toMatchObject({ current_version_id: first.v.id, assets_status: 'ready' });
      expect(
        (await call('/api/v1/workspaces/ws_stock/avatars')).body.data.map((x: any) => x.id),
      ).toEqual(first.stock);
      const clip = (await call(`/api/v1/avatars/${first.a.id}/versions/${first.v.id}/idle`))
        .body as Buffer;
      expect(Buffer.compare(clip, first.clip)).toBe(0);
      expect(
        Buffer.compare(
          (await call(`/api/v1/avatars/${first.a.id}/versions/${first.v.id}/upload`)).body,
          png(),
        ),
      ).toBe(0);
    });
  });
});
