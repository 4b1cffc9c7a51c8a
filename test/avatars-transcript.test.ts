/**
 * Voice transcripts (spec 4.7 `X-Ref-Text`, `voice_ref_text`): the emulator has no
 * speech recognizer, so it never invents a transcript. A version or voice version says
 * where its transcript stands: `provided` (sent by the caller), `unavailable` (a sample
 * without a transcript: server-side transcription is not emulated) or null (no sample,
 * no transcript).
 */
import { describe, expect, it } from 'vitest';
import { AvatarVersionSchema } from '../src/contract/resources/avatar.js';
import { VoiceVersionSchema } from '../src/contract/resources/voice.js';
import { useEmulator } from './helpers/emulator.js';
import { wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleMedia: false });

const call = (path: string) => h.api(path);
const post = (path: string, body: unknown) => h.api(path, { body });
const put = (path: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
  h.api(path, { raw: bytes, type: 'audio/wav', headers });

async function version(body: Record<string, unknown> = {}) {
  const a = (await post('/api/v1/avatars', { name: 'Speaker', kind: 'custom' })).body;
  const v = (await post(`/api/v1/avatars/${a.id}/versions`, body)).body;
  return { v, base: `/api/v1/avatars/${a.id}/versions/${v.id}` };
}

describe('avatar version voice_transcription', () => {
  it('is null before any sample or transcript', async () => {
    const { v } = await version();
    expect(v).toMatchObject({ voice_ref_text: null, voice_transcription: null });
    expect(AvatarVersionSchema.safeParse(v).success).toBe(true);
  });

  it('a sample without X-Ref-Text: transcript null, transcription unavailable (nothing is made up)', async () => {
    const { base } = await version();
    const r = await put(`${base}/voice`, wav(6));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ voice_ref_text: null, voice_transcription: 'unavailable' });
    expect((await call(base)).body.voice_transcription).toBe('unavailable');
  });

  it('X-Ref-Text (percent-encoded for non-Latin-1 text) is the transcript: provided', async () => {
    const { base } = await version();
    const r = await put(`${base}/voice`, wav(6), {
      'x-ref-text': encodeURIComponent('Grüße, 你好'),
    });
    expect(r.body).toMatchObject({
      voice_ref_text: 'Grüße, 你好',
      voice_transcription: 'provided',
    });
  });

  it('voice_ref_text on create is provided too, and the header replaces it', async () => {
    const { v, base } = await version({ voice_ref_text: 'from the body' });
    expect(v.voice_transcription).toBe('provided');
    expect((await put(`${base}/voice`, wav(6))).body).toMatchObject({
      voice_ref_text: 'from the body',
      voice_transcription: 'provided',
    });
    const other = await version({ voice_ref_text: 'from the body' });
    expect(
      (await put(`${other.base}/voice`, wav(6), { 'x-ref-text': 'from the header' })).body
        .voice_ref_text,
    ).toBe('from the header');
  });
});

describe('X-Ref-Text bounds', () => {
  it('is held to the voice_ref_text limit (4,096 chars): 400 invalid_request, nothing stored', async () => {
    const { base } = await version();
    const r = await put(`${base}/voice`, wav(6), { 'x-ref-text': 'a'.repeat(4_097) });
    expect(r).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(r.body.detail).toMatch(/^X-Ref-Text/);
    expect((await call(base)).body).toMatchObject({
      voice_blob_key: null,
      voice_transcription: null,
    });
    expect((await put(`${base}/voice`, wav(6), { 'x-ref-text': 'a'.repeat(4_096) })).status).toBe(
      200,
    );
  });

  it('the same on a voice version sample', async () => {
    const voice = (await post('/api/v1/voices', { name: 'Long' })).body;
    const ver = (await post(`/api/v1/voices/${voice.id}/versions`, {})).body;
    expect((await put(ver.upload_url, wav(6), { 'x-ref-text': 'b'.repeat(4_097) })).status).toBe(
      400,
    );
    expect(
      (await call(`/api/v1/voices/${voice.id}/versions`)).body.data[0].sample_blob_key,
    ).toBeNull();
  });
});

describe('voice version transcription', () => {
  it('null before the sample; unavailable without X-Ref-Text; provided with it', async () => {
    const voice = (await post('/api/v1/voices', { name: 'Sampled' })).body;
    const v1 = (await post(`/api/v1/voices/${voice.id}/versions`, {})).body;
    expect(v1).toMatchObject({ ref_text: null, transcription: null });
    const up1 = await put(v1.upload_url, wav(6));
    expect(up1.body).toMatchObject({ ref_text: null, transcription: 'unavailable' });
    expect(VoiceVersionSchema.safeParse(up1.body).success).toBe(true);
    const v2 = (await post(`/api/v1/voices/${voice.id}/versions`, {})).body;
    expect((await put(v2.upload_url, wav(6), { 'x-ref-text': 'hello there' })).body).toMatchObject({
      ref_text: 'hello there',
      transcription: 'provided',
    });
  });
});
