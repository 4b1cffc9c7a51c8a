import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';
import { apiCall } from './helpers/emulator.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { image, wav } from './helpers/avatar-media.js';

/**
 * Issue 23 item 6: the data dir holds the bootstrap keys in plain text, recordings of users'
 * microphones and uploaded faces and voices: it is created 0700, every file in it 0600, and
 * one left readable by others is tightened on start with a one-line notice.
 */

/** Every entry under `dir` (itself included) whose mode lets group or others in. */
function readableByOthers(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if ((st.mode & 0o077) !== 0) out.push(`${p} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(dir);
  return out;
}

function allFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (lstatSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
    else out.push(p);
  };
  walk(dir);
  return out;
}

const started: RunningEmulator[] = [];
afterAll(async () => {
  for (const e of started) await e.stop();
});

describe('the data directory is private', () => {
  it('a fresh data dir and every file the emulator writes in it (store, WAL, uploads, idle media, recordings) are owner-only', async () => {
    // A permissive umask, as many desktops have: the modes must not depend on it.
    const umask = process.umask(0o022);
    try {
      const dir = join(mkdtempSync(join(tmpdir(), 'avatar-private-')), 'data');
      const emu = await startEmulator({
        port: 0,
        host: '127.0.0.1',
        dataDir: dir,
        boxes: 1,
        mintRatePerMinute: 0,
        idleSeconds: 1,
      });
      started.push(emu);
      const api = (path: string, init?: Parameters<typeof apiCall>[2]) => apiCall(emu, path, init);

      // Uploads: a face and a voice; the face gets an idle loop built in the background.
      const a = (await api('/api/v1/avatars', { body: { name: 'Private', kind: 'custom' } })).body;
      const v = (await api(`/api/v1/avatars/${a.id}/versions`, { body: {} })).body;
      expect(
        (await api(v.upload_url, { raw: await image('jpeg'), type: 'image/jpeg' })).status,
      ).toBe(200);
      const voice = await api(`/api/v1/avatars/${a.id}/versions/${v.id}/voice`, {
        raw: wav(6),
        type: 'audio/wav',
        headers: { 'x-ref-text': 'hello' },
      });
      expect(voice.status).toBe(200);
      await until(
        () => api(`/api/v1/avatars/${a.id}`),
        (r) => r.body.assets_status === 'ready',
        60_000,
      );

      // A recorded session: the user's microphone on disk.
      const m = (
        await api('/api/v1/sessions', {
          body: {
            persona: 'ava',
            recording: true,
            config: { render: false, greeting_enabled: false },
          },
        })
      ).body;
      const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
      mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
      mic.ws.send(Buffer.alloc(3200));
      mic.close();
      await until(
        () => api(`/api/v1/sessions/${m.session_id}`),
        (r) => r.body.status === 'ended',
      );

      const files = allFiles(dir).map((f) => f.slice(dir.length + 1));
      expect(files).toEqual(
        expect.arrayContaining([
          'emulator.sqlite',
          'emulator.lock',
          expect.stringMatching(/^emulator\.sqlite-wal$/),
        ]),
      );
      expect(files.some((f) => f.endsWith('face.jpg'))).toBe(true);
      expect(files.some((f) => f.endsWith('voice.wav'))).toBe(true);
      expect(files.some((f) => f.endsWith('.mp4') && !f.includes('captures'))).toBe(true); // the idle loop
      expect(files).toContain(`blobs/captures/${m.session_id}/mic.wav`);
      expect(lstatSync(dir).mode & 0o777).toBe(0o700);
      expect(readableByOthers(dir)).toEqual([]);
    } finally {
      process.umask(umask);
    }
  }, 90_000);

  it('an existing data dir readable by others is tightened on start, with a one-line notice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-open-'));
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'blobs', 'old'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'blobs', 'old', 'face.png'), 'x', { mode: 0o644 });
    chmodSync(join(dir, 'blobs'), 0o755);
    writeFileSync(join(dir, 'emulator.sqlite'), '', { mode: 0o644 });
    // Not the emulator's: a `--data .` pointing at a project must not have the project rewritten.
    writeFileSync(join(dir, 'notes.txt'), 'mine', { mode: 0o644 });
    const notes: string[] = [];
    const spy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (notes.push(String(chunk)), true));
    let emu: RunningEmulator;
    try {
      emu = await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, boxes: 0 });
    } finally {
      spy.mockRestore();
    }
    started.push(emu);
    expect(readableByOthers(dir)).toEqual([`${join(dir, 'notes.txt')} 644`]);
    const notice = notes.filter((n) => n.includes(dir));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toMatch(/made private \(owner only\) on 5 entries/); // the dir, blobs, old, face.png, the store
    expect(notice[0]!.trim().split('\n')).toHaveLength(1);

    // A second start on a private dir says nothing.
    await emu.stop();
    started.pop();
    const again: string[] = [];
    const spy2 = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (again.push(String(chunk)), true));
    try {
      started.push(await startEmulator({ port: 0, host: '127.0.0.1', dataDir: dir, boxes: 0 }));
    } finally {
      spy2.mockRestore();
    }
    expect(again.filter((n) => n.includes('made private'))).toEqual([]);
  });
});
