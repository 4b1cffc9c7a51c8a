import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';
import { bigPng, image, mp3, png, wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleMedia: false });

const call = (path: string) => h.api(path);
const post = (path: string, body: unknown) => h.api(path, { body });
const put = (path: string, bytes: Uint8Array, type: string, headers: Record<string, string> = {}) =>
  h.api(path, { raw: bytes, type, headers });

async function draftVersion() {
  const a = (await post('/api/v1/avatars', { name: 'Uploader', kind: 'custom' })).body;
  const v = (await post(`/api/v1/avatars/${a.id}/versions`, { system_prompt: 'hi' })).body;
  return { a, v, base: `/api/v1/avatars/${a.id}/versions/${v.id}` };
}

describe('face upload (spec 4.7, 8: jpeg, png or webp by content; 10 MB)', () => {
  it('stores a png, publishes the version and serves the bytes back', async () => {
    const { a, v, base } = await draftVersion();
    const r = await put(v.upload_url, png(), 'image/png');
    expect(r.status).toBe(200);
    expect(r.body.image_blob_key).toMatch(/face\.png$/);
    expect(r.body.published_at).toEqual(expect.any(Number));
    expect((await call(`/api/v1/avatars/${a.id}`)).body.current_version_id).toBe(v.id);
    const back = await call(`${base}/upload`);
    expect(back.status).toBe(200);
    expect(back.type).toBe('image/png');
    expect(Buffer.compare(back.body, png())).toBe(0);
  });

  it.each(['jpeg', 'webp'] as const)('accepts %s', async (fmt) => {
    const { v } = await draftVersion();
    const r = await put(v.upload_url, await image(fmt), `image/${fmt}`);
    expect(r.status).toBe(200);
    expect(r.body.image_blob_key).toMatch(fmt === 'jpeg' ? /\.jpg$/ : /\.webp$/);
  });

  it('refuses an 11 MB image with 413 payload_too_large', async () => {
    const { v } = await draftVersion();
    const r = await put(v.upload_url, bigPng(11), 'image/png');
    expect(r).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
  });

  it('refuses a wrong Content-Type and bytes that are not an allowed image', async () => {
    const { v } = await draftVersion();
    expect(await put(v.upload_url, png(), 'image/gif')).toMatchObject({
      status: 415,
      body: { error: 'unsupported_media_type', detail: 'content_type:image/gif' },
    });
    expect(await put(v.upload_url, png(), 'text/plain')).toMatchObject({
      status: 415,
      body: { error: 'unsupported_media_type' },
    });
    // Checked by content: a GIF sent as image/png is refused.
    expect(await put(v.upload_url, await image('gif'), 'image/png')).toMatchObject({
      status: 415,
      body: { detail: 'content:image/gif' },
    });
    expect(await put(v.upload_url, Buffer.from('not an image at all'), 'image/jpeg')).toMatchObject(
      { status: 415, body: { detail: 'content:unknown' } },
    );
    expect(await put(v.upload_url, new Uint8Array(), 'image/png')).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
  });

  it('keeps versions immutable: a second face upload is 409', async () => {
    const { v } = await draftVersion();
    expect((await put(v.upload_url, png(), 'image/png')).status).toBe(200);
    expect(await put(v.upload_url, png(), 'image/png')).toMatchObject({
      status: 409,
      body: { error: 'conflict' },
    });
  });

  it('adds extra faces (PUT .../faces) with the same checks', async () => {
    const { base } = await draftVersion();
    const r = await put(`${base}/faces`, png(), 'image/png');
    expect(r.status).toBe(200);
    expect(r.body.face_blob_keys).toHaveLength(1);
    const r2 = await put(`${base}/faces`, await image('jpeg'), 'image/jpeg');
    expect(r2.body.face_blob_keys).toHaveLength(2);
    expect((await put(`${base}/faces`, bigPng(11), 'image/png')).status).toBe(413);
    expect((await put(`${base}/faces`, Buffer.from('x'), 'image/png')).status).toBe(415);
  });
});

describe('voice upload (spec 4.7, 8: mpeg or wav, 25 MB, 5 to 30 s)', () => {
  it('accepts a 6 s wav, measures it and keeps X-Ref-Text', async () => {
    const { base } = await draftVersion();
    const r = await put(`${base}/voice`, wav(6), 'audio/wav', {
      'x-ref-text': 'the quick brown fox',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ voice_seconds: 6, voice_ref_text: 'the quick brown fox' });
    expect(r.body.voice_blob_key).toMatch(/voice\.wav$/);
    const back = await call(`${base}/voice`);
    expect(back.type).toBe('audio/wav');
    expect(back.body.length).toBe(wav(6).length);
  });

  it('accepts a 10 s mp3, measured from its frames', async () => {
    const { base } = await draftVersion();
    const r = await put(`${base}/voice`, await mp3(10), 'audio/mpeg');
    expect(r.status).toBe(200);
    expect(r.body.voice_seconds).toBeGreaterThan(9.8);
    expect(r.body.voice_seconds).toBeLessThan(10.3);
  });

  it('refuses a 3 s and a 31 s sample', async () => {
    const { base } = await draftVersion();
    expect(await put(`${base}/voice`, wav(3), 'audio/wav')).toMatchObject({
      status: 400,
      body: { error: 'invalid_voice_sample', detail: 'too_short', duration_seconds: 3 },
    });
    expect(await put(`${base}/voice`, wav(31), 'audio/wav')).toMatchObject({
      status: 400,
      body: { error: 'invalid_voice_sample', detail: 'too_long', duration_seconds: 31 },
    });
    expect(await put(`${base}/voice`, await mp3(3), 'audio/mpeg')).toMatchObject({
      status: 400,
      body: { detail: 'too_short' },
    });
  });

  it('refuses a wrong content type, non-audio bytes and a body over 25 MB', async () => {
    const { base } = await draftVersion();
    expect(await put(`${base}/voice`, wav(6), 'audio/ogg')).toMatchObject({
      status: 415,
      body: { error: 'unsupported_media_type' },
    });
    expect(await put(`${base}/voice`, png(), 'audio/wav')).toMatchObject({
      status: 415,
      body: { detail: 'content:image/png' },
    });
    const huge = Buffer.alloc(26 * 1024 * 1024);
    wav(6).copy(huge, 0, 0, 44);
    expect(await put(`${base}/voice`, huge, 'audio/wav')).toMatchObject({
      status: 413,
      body: { error: 'payload_too_large' },
    });
  });

  it('keeps the voice write-once per version, and inherit_image carries it forward', async () => {
    const { a, v, base } = await draftVersion();
    expect((await put(`${base}/voice`, wav(6), 'audio/wav')).status).toBe(200);
    expect((await put(`${base}/voice`, wav(6), 'audio/wav')).status).toBe(409);
    await put(v.upload_url, png(), 'image/png');
    const v2 = (await post(`/api/v1/avatars/${a.id}/versions`, { inherit_image: true })).body;
    expect(v2.voice_blob_key).toBe((await call(`${base}`)).body.voice_blob_key);
    expect(v2.published_at).toEqual(expect.any(Number));
  });

  it('requires the custom_avatars feature for uploads', async () => {
    const { v } = await draftVersion();
    h.emu.ctx.db
      .prepare(`UPDATE workspaces SET features = '[]' WHERE id = ?`)
      .run(h.emu.keys.workspaceId);
    try {
      expect(await put(v.upload_url, png(), 'image/png')).toMatchObject({
        status: 403,
        body: { error: 'forbidden', detail: 'missing_feature:custom_avatars' },
      });
    } finally {
      h.emu.ctx.db
        .prepare(`UPDATE workspaces SET features = '["custom_avatars"]' WHERE id = ?`)
        .run(h.emu.keys.workspaceId);
    }
  });
});
