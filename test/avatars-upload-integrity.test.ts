/**
 * Uploads are checked for what they are, not only for their magic bytes, and each slot
 * of an immutable version is written once even when two uploads race.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../src/emulator/start.js';
import { useEmulator } from './helpers/emulator.js';
import { image, mp3, png, wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleSeconds: 1 });

const call = (path: string) => h.api(path);
const post = (path: string, body: unknown) => h.api(path, { body });
const put = (path: string, bytes: Uint8Array, type: string, headers: Record<string, string> = {}) =>
  h.api(path, { raw: bytes, type, headers });

async function draftVersion() {
  const a = (await post('/api/v1/avatars', { name: 'Integrity', kind: 'custom' })).body;
  const v = (await post(`/api/v1/avatars/${a.id}/versions`, { system_prompt: 'hi' })).body;
  return { a, v, base: `/api/v1/avatars/${a.id}/versions/${v.id}` };
}

/** Real background work (ffmpeg): poll the avatar a bounded number of times. */
async function assetsStatus(avatarId: string, until: (s: string) => boolean): Promise<string> {
  let s = '';
  for (let i = 0; i < 400; i++) {
    s = (await call(`/api/v1/avatars/${avatarId}`)).body.assets_status;
    if (until(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  return s;
}

describe('face images are decoded before they are accepted', () => {
  it.each([
    ['png cut after its header', () => png().subarray(0, 200), 'image/png'],
    ['png cut in half', () => png().subarray(0, png().length >> 1), 'image/png'],
    ['webp cut in half', async () => (await image('webp')).subarray(0, 400), 'image/webp'],
  ])(
    '%s: 400 invalid_image, detail unreadable; the version stays unpublished',
    async (_name, bytes, type) => {
      const { a, v, base } = await draftVersion();
      const r = await put(v.upload_url, await bytes(), type);
      expect(r).toMatchObject({
        status: 400,
        body: { error: 'invalid_image', detail: 'unreadable' },
      });
      expect((await call(base)).body).toMatchObject({ image_blob_key: null, published_at: null });
      expect((await call(`/api/v1/avatars/${a.id}`)).body).toMatchObject({
        current_version_id: null,
        status: 'draft',
      });
      // The slot is still free: a good image goes in afterwards.
      expect((await put(v.upload_url, png(), 'image/png')).status).toBe(200);
    },
  );

  it('the same check guards extra faces', async () => {
    const { base } = await draftVersion();
    expect(await put(`${base}/faces`, png().subarray(0, 300), 'image/png')).toMatchObject({
      status: 400,
      body: { error: 'invalid_image' },
    });
    expect((await call(base)).body.face_blob_keys).toEqual([]);
  });

  it('a webp face gets its idle loop like any other (missing -> ready)', async () => {
    const { a, v } = await draftVersion();
    expect((await put(v.upload_url, await image('webp'), 'image/webp')).status).toBe(200);
    expect(await assetsStatus(a.id, (s) => s === 'ready')).toBe('ready');
    const clip = await call(`/api/v1/avatars/${a.id}/versions/${v.id}/idle`);
    expect(clip).toMatchObject({ status: 200, type: 'video/mp4' });
  });
});

describe('write-once slots under concurrent uploads', () => {
  it('two face uploads at once: one 200, one 409, and the stored bytes are the winner', async () => {
    const { v, base } = await draftVersion();
    const jpeg = await image('jpeg');
    const [r1, r2] = await Promise.all([
      put(v.upload_url, png(), 'image/png'),
      put(v.upload_url, jpeg, 'image/jpeg'),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const winner = r1.status === 200 ? r1 : r2;
    const stored = await call(`${base}/upload`);
    expect(stored.type).toBe(winner === r1 ? 'image/png' : 'image/jpeg');
    expect(Buffer.compare(stored.body, winner === r1 ? png() : jpeg)).toBe(0);
  });

  it('two uploads of the same type at once: the 409 never overwrites the stored bytes', async () => {
    const { v, base } = await draftVersion();
    const leo = png();
    const ava = readFileSync(join(FIXTURES_DIR, 'personas', 'ava', 'face.png'));
    const [r1, r2] = await Promise.all([
      put(v.upload_url, leo, 'image/png'),
      put(v.upload_url, ava, 'image/png'),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const stored = (await call(`${base}/upload`)).body as Buffer;
    expect(Buffer.compare(stored, r1.status === 200 ? leo : ava)).toBe(0);
  });

  it('two extra faces at once: both are kept under distinct keys', async () => {
    const { base } = await draftVersion();
    const jpeg = await image('jpeg');
    const rs = await Promise.all([
      put(`${base}/faces`, png(), 'image/png'),
      put(`${base}/faces`, jpeg, 'image/jpeg'),
    ]);
    expect(rs.map((r) => r.status)).toEqual([200, 200]);
    const keys = (await call(base)).body.face_blob_keys as string[];
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });

  it('two voice samples at once: one 200, one 409', async () => {
    const { base } = await draftVersion();
    const [r1, r2] = await Promise.all([
      put(`${base}/voice`, wav(6), 'audio/wav'),
      put(`${base}/voice`, await mp3(7), 'audio/mpeg'),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const winner = r1.status === 200 ? r1 : r2;
    expect((await call(base)).body.voice_seconds).toBe(winner.body.voice_seconds);
  });

  it('two voice-version samples at once: one 200, one 409', async () => {
    const voice = (await post('/api/v1/voices', { name: 'Racer', kind: 'cloned' })).body;
    const ver = (await post(`/api/v1/voices/${voice.id}/versions`, {})).body;
    const [r1, r2] = await Promise.all([
      put(ver.upload_url, wav(6), 'audio/wav'),
      put(ver.upload_url, wav(8), 'audio/wav'),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 409]);
    const winner = r1.status === 200 ? r1 : r2;
    const stored = await call(`${ver.upload_url}`);
    expect(stored.body.length).toBe(wav(winner.body.sample_seconds).length);
  });
});
