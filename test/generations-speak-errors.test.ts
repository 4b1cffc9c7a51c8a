/**
 * Every error of spec 7 "Speak" (invalid_json, missing_fields, workspace_id_required, 401,
 * 403 forbidden, 429 at_capacity with Retry-After, 502 render_failed, 503
 * no_box_available), and the bounds on fetching media URLs (loopback only, size, time,
 * redirects, the immutable-URL cache).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { writeWav } from '../src/models/voice/index.js';
import { useEmulator } from './helpers/emulator.js';
import { png } from './helpers/avatar-media.js';
import { dataUri, mp4Info, spokenWav } from './helpers/generation-media.js';
import { startMediaServer, type MediaServer } from './helpers/media-server.js';

let ref: Buffer;
let media: MediaServer;
beforeAll(async () => {
  ref = await spokenWav('This is the voice I would like you to use.', { voice: 'slt' });
  media = await startMediaServer({
    '/face.png': { bytes: png(), type: 'image/png' },
    '/voice.wav': { bytes: ref, type: 'audio/wav' },
    '/big.png': {
      bytes: Buffer.concat([png(), Buffer.alloc(11 * 1024 * 1024)]),
      type: 'image/png',
    },
    '/not-an-image.png': { bytes: Buffer.from('hello, I am text'), type: 'image/png' },
  });
});
afterAll(() => media.close());

const body = (extra: Record<string, unknown> = {}) => ({
  text: 'Hello there.',
  image: dataUri('image/png', png()),
  voice_ref: dataUri('audio/wav', ref),
  ...extra,
});

describe('speak errors (spec 7)', () => {
  const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false, renderCells: 1 });
  const speak = (b: unknown, key?: string) => h.api('/api/v1/speak', { body: b, key });

  it('400 invalid_json for a body that is not JSON', async () => {
    const r = await h.fetch('/api/v1/speak', {
      method: 'POST',
      key: h.emu.keys.secretKey,
      headers: { 'content-type': 'application/json' },
      body: '{"text": "hi",',
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toBe('invalid_json');
  });

  it('400 missing_fields naming what is missing (text, image, voice ref)', async () => {
    const r = await speak({ text: 'Hello' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'missing_fields', fields: ['image', 'voice_ref'] });
    const noText = await speak(body({ text: '' }));
    expect(noText.body).toMatchObject({ error: 'missing_fields', fields: ['text'] });
    // content without any audio part still lacks the voice
    const c = await speak({
      text: 'Hi',
      content: [{ type: 'image_url', image_url: { url: dataUri('image/png', png()) } }],
    });
    expect(c.body).toMatchObject({ error: 'missing_fields', fields: ['voice_ref'] });
  });

  it('400 missing_fields for media sent as null (as for text), not a type error', async () => {
    expect((await speak(body({ image: null }))).body).toMatchObject({
      error: 'missing_fields',
      fields: ['image'],
    });
    expect((await speak(body({ voice_ref: null, content: null }))).body).toMatchObject({
      error: 'missing_fields',
      fields: ['voice_ref'],
    });
    expect((await speak(body({ text: null, image: null }))).body).toMatchObject({
      error: 'missing_fields',
      fields: ['text', 'image'],
    });
  });

  it('400 invalid_request for a field of the wrong type or out of range, naming it', async () => {
    expect((await speak(body({ width: 351 }))).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^width: .*even/),
    });
    expect((await speak(body({ frame_rate: 0 }))).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^frame_rate/),
    });
    expect((await speak(body({ text: 'x'.repeat(4097) }))).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^text/),
    });
    expect((await speak([1, 2])).body).toMatchObject({ error: 'invalid_request' });
    expect((await speak(body({ text: 42 }))).body).toMatchObject({
      error: 'invalid_request',
      detail: 'text: expected a string',
    });
    expect((await speak(body({ text: ' \n ' }))).body).toMatchObject({
      error: 'invalid_request',
      detail: 'text: must contain words to say',
    });
    expect((await speak(body({ content: [{ type: 'video_url' }] }))).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^content/),
    });
    const aiff = {
      type: 'input_audio',
      input_audio: { data: ref.toString('base64'), format: 'aiff' },
    };
    const image = { type: 'image_url', image_url: { url: dataUri('image/png', png()) } };
    expect((await speak({ text: 'Hi', content: [image, aiff] })).body).toMatchObject({
      error: 'invalid_request',
      detail: 'content.1.input_audio.format: one of wav, mp3, m4a, flac, ogg',
    });
  });

  it('400 workspace_id_required for a key that is not workspace-bound; with workspace_id it renders', async () => {
    const r = await speak(body(), h.emu.keys.dashboardKey);
    expect(r).toMatchObject({ status: 400, body: { error: 'workspace_id_required' } });
    const ok = await speak(body({ workspace_id: h.emu.keys.workspaceId }), h.emu.keys.dashboardKey);
    expect(ok.status).toBe(200);
  });

  it('401 without a key or with an unknown one', async () => {
    const none = await h.fetch('/api/v1/speak', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body()),
    });
    expect(none.status).toBe(401);
    expect((await speak(body(), 'avatar_00000000.' + '0'.repeat(56))).status).toBe(401);
  });

  it('403 forbidden without generations:write, or for a workspace the key is not a member of', async () => {
    const t = await h.api('/api/v1/tokens', { body: { name: 'reader', scopes: ['avatars:read'] } });
    const r = await speak(body(), t.body.token);
    expect(r).toMatchObject({
      status: 403,
      body: { error: 'forbidden', detail: 'missing_scope:generations:write' },
    });
    const other = await h.api('/api/v1/workspaces', {
      body: { name: 'Other' },
      key: h.emu.keys.dashboardKey,
    });
    expect((await speak(body({ workspace_id: other.body.id }))).body).toMatchObject({
      error: 'forbidden',
    });
    expect(
      (
        await speak(
          body({ workspace_id: '00000000-0000-4000-8000-000000000000' }),
          h.emu.keys.dashboardKey,
        )
      ).body,
    ).toMatchObject({ error: 'forbidden' });
  });

  it('429 at_capacity with Retry-After while every render cell is busy; the busy render still finishes', async () => {
    const first = speak(body({ image: media.url('/hold') }));
    await media.held();
    const busy = await speak(body());
    expect(busy.status).toBe(429);
    expect(busy.body).toMatchObject({ error: 'at_capacity', retryable: true });
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThan(0);
    media.release(png(), 'image/png');
    expect((await first).status).toBe(200);
    expect((await speak(body())).status).toBe(200);
  });

  it('502 render_failed when the TTS or the video stage fails; the cell is freed', async () => {
    for (const stage of ['tts', 'video']) {
      await h.op('/_emulator/generations/faults', {
        method: 'POST',
        body: JSON.stringify({ stage }),
      });
      const r = await speak(body());
      expect(r).toMatchObject({ status: 502, body: { error: 'render_failed', retryable: true } });
    }
    expect((await speak(body())).status).toBe(200);
  });

  it("400 naming text when the voice finds nothing to say in it (the caller's input; no silent one-frame clip)", async () => {
    for (const text of ['你好', '!!!', '😀😀']) {
      const r = await speak(body({ text }));
      expect(r.status, text).toBe(400);
      expect(r.body).toMatchObject({
        error: 'invalid_request',
        detail: expect.stringMatching(/^text: nothing .*English/),
        message: expect.stringMatching(/nothing to say.*English/),
      });
    }
    expect((await speak(body({ text: 'Hello, 42!' }))).status).toBe(200);
  });

  it('fetches loopback media URLs; with immutable_url_for_caching a URL is fetched once', async () => {
    const viaUrl = body({ image: media.url('/face.png'), voice_ref: media.url('/voice.wav') });
    expect((await speak(viaUrl)).status).toBe(200);
    expect((await speak(viaUrl)).status).toBe(200);
    expect(media.hits('/face.png')).toBe(2);
    const cached = { ...viaUrl, immutable_url_for_caching: true };
    const r = await speak(cached);
    expect(r.status).toBe(200);
    expect((await mp4Info(r.body)).video?.codec).toBe('h264');
    expect((await speak(cached)).status).toBe(200);
    expect(media.hits('/face.png')).toBe(3);
    expect(media.hits('/voice.wav')).toBe(3);
  });

  it('refuses non-loopback URLs, failed fetches, redirects, oversized and undecodable media with 400 naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ image: 'http://192.0.2.10/face.png' }, /^image: only loopback/],
      [{ voice_ref: 'https://example.com/v.wav' }, /^voice_ref: only loopback/],
      [{ image: 'ftp://127.0.0.1/face.png' }, /^image: expected an http\(s\) URL/],
      [{ image: media.url('/nope.png') }, /^image: fetch answered HTTP 404/],
      [{ image: media.url('/redirect') }, /^image: cannot fetch/],
      [{ image: media.url('/big.png') }, /^image: over \d+ bytes/],
      [{ image: media.url('/not-an-image.png') }, /^image: not a decodable image/],
      [
        { voice_ref: dataUri('audio/wav', Buffer.from('RIFF but not really')) },
        /^voice_ref: not a decodable audio/,
      ],
      [{ image: 'data:image/png,%E0%A4%A' }, /^image: malformed data: URI/],
      // nothing voiced to measure: a silent reference would otherwise speak at half pace
      [
        { voice_ref: dataUri('audio/wav', writeWav(new Int16Array(3 * 16_000), 16_000)) },
        /^voice_ref: no speech found/,
      ],
    ];
    for (const [extra, detail] of cases) {
      const r = await speak(body(extra));
      expect(r.status, JSON.stringify(extra).slice(0, 80)).toBe(400);
      expect(r.body).toMatchObject({
        error: 'invalid_request',
        detail: expect.stringMatching(detail),
      });
    }
  });
});

describe('speak loopback hosts', () => {
  const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false });
  it('an IPv4-mapped IPv6 loopback URL is loopback, fetched like 127.0.0.1', async () => {
    const url = media.url('/face.png').replace('127.0.0.1', '[::ffff:127.0.0.1]');
    const r = await h.api('/api/v1/speak', { body: body({ image: url }) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});

describe('speak with no box registered', () => {
  const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false, boxes: 0 });
  it('503 no_box_available', async () => {
    const r = await h.api('/api/v1/speak', { body: body() });
    expect(r).toMatchObject({ status: 503, body: { error: 'no_box_available', retryable: true } });
  });
});

describe('speak media fetch time bound (injected clock)', () => {
  const clock = new ManualClock();
  const h = useEmulator({
    idleMedia: false,
    transcribeVoiceRefs: false,
    clock,
    mediaFetchTimeoutMs: 5_000,
  });
  it('a URL that never answers is dropped after mediaFetchTimeoutMs: 400 naming the field', async () => {
    const pending = h.api('/api/v1/speak', { body: body({ image: media.url('/hold') }) });
    await media.held();
    clock.advance(5_000);
    const r = await pending;
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', detail: 'image: fetch timed out after 5000 ms' },
    });
    media.release(png(), 'image/png');
  });
});
