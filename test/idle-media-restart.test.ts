/**
 * Restart recovery of the idle-media builder: a process killed mid-build leaves rows
 * `building`; the next start puts them back to `missing` and builds them to `ready`.
 */
import { apiCall } from './helpers/emulator.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';
import { putBlob } from '../src/emulator/avatars/blobs.js';
import { renderSilentClip } from '../src/media/clips.js';
import { loadIdleLoop } from '../src/media/idle-loop.js';
import { personaStyle } from '../src/emulator/idle-media/worker.js';

const dir = mkdtempSync(join(tmpdir(), 'avatar-idle-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const api = async (emu: RunningEmulator, path: string, body?: unknown) => (await apiCall(emu, path, { body })).body;

describe('idle media across a crash mid-build', () => {
  it('a version left building is rebuilt to ready on the next start', async () => {
    const first = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleMedia: false });
    let avatarId: string;
    let versionId: string;
    try {
      const a = await api(first, '/api/v1/avatars', { name: 'Interrupted' });
      const v = await api(first, `/api/v1/avatars/${a.id}/versions`, { source_persona: 'mei' });
      avatarId = a.id;
      versionId = v.id;
      // What a kill -9 during a build leaves behind.
      first.ctx.db.prepare(`INSERT INTO idle_media (version_id, avatar_id, status, updated_at) VALUES (?, ?, 'building', 0)`).run(v.id, a.id);
      first.ctx.db.prepare(`UPDATE avatars SET assets_status = 'building' WHERE id = ?`).run(a.id);
      expect((await api(first, `/api/v1/avatars/${a.id}`)).assets_status).toBe('building');
    } finally {
      await first.stop();
    }
    const second = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleSeconds: 1 });
    try {
      expect(['missing', 'building', 'ready']).toContain((await api(second, `/api/v1/avatars/${avatarId}`)).assets_status);
      let status = '';
      for (let i = 0; i < 400 && status !== 'ready'; i++) {
        status = (await api(second, `/api/v1/avatars/${avatarId}`)).assets_status;
        if (status !== 'ready') await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe('ready');
      const clip = await fetch(`${second.baseUrl}/api/v1/avatars/${avatarId}/versions/${versionId}/idle`, {
        headers: { authorization: `Bearer ${second.keys.secretKey}` },
      });
      expect(clip.status).toBe(200);
      expect(clip.headers.get('content-type')).toBe('video/mp4');
    } finally {
      await second.stop();
    }
  });

  it('an idle loop an older emulator built (muted, not fragmented) is rebuilt in the live format', async () => {
    const first = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleMedia: false });
    let avatarId: string;
    let versionId: string;
    try {
      const a = await api(first, '/api/v1/avatars', { name: 'OldFormat' });
      const v = await api(first, `/api/v1/avatars/${a.id}/versions`, { source_persona: 'sam' });
      avatarId = a.id;
      versionId = v.id;
      const old = await renderSilentClip(personaStyle(first.ctx, 'sam')!, { seconds: 1 });
      const key = `avatars/${a.id}/${v.id}/idle.mp4`;
      putBlob(first.ctx, key, old);
      first.ctx.db.prepare(`INSERT INTO idle_media (version_id, avatar_id, status, blob_key, frames, updated_at) VALUES (?, ?, 'ready', ?, 24, 0)`).run(v.id, a.id, key);
      first.ctx.db.prepare(`UPDATE avatars SET assets_status = 'ready' WHERE id = ?`).run(a.id);
      expect(() => loadIdleLoop(old)).toThrow(/not a fragmented MP4/);
    } finally {
      await first.stop();
    }
    const second = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, idleSeconds: 1 });
    try {
      let status = '';
      for (let i = 0; i < 400 && status !== 'ready'; i++) {
        status = (await api(second, `/api/v1/avatars/${avatarId}`)).assets_status;
        if (status !== 'ready') await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe('ready');
      const clip = await fetch(`${second.baseUrl}/api/v1/avatars/${avatarId}/versions/${versionId}/idle`, {
        headers: { authorization: `Bearer ${second.keys.secretKey}` },
      });
      const loop = loadIdleLoop(Buffer.from(await clip.arrayBuffer()));
      expect(loop.tracks.map((t) => t.kind).sort()).toEqual(['audio', 'video']);
    } finally {
      await second.stop();
    }
  });
});
