/**
 * POST /api/v1/design (spec 4.10): a described voice says the text as 24 kHz mono PCM16
 * WAV. The WAV header and `duration_seconds` agree; the description moves pitch and pace
 * the way its words say, always the same way; `max_new_tokens` bounds the audio; errors
 * (not shown in the spec) follow speak's vocabulary (docs/fidelity.md).
 */
import { describe, expect, it } from 'vitest';
import { measureVoice, readWav } from '../src/models/voice/index.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ idleMedia: false });
const TEXT = 'Good morning. The weather today is mild, with a light breeze from the west.';
const design = (body: unknown, key?: string) => h.api('/api/v1/design', { body, key });

/** Parse a PCM WAV header by hand (RIFF/fmt/data), independent of the service's writer. */
function wavHeader(wav: Buffer) {
  expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
  expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
  let off = 12;
  const out = { format: 0, channels: 0, sampleRate: 0, bits: 0, dataBytes: 0 };
  while (off + 8 <= wav.length) {
    const id = wav.toString('ascii', off, off + 4);
    const size = wav.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      out.format = wav.readUInt16LE(off + 8);
      out.channels = wav.readUInt16LE(off + 10);
      out.sampleRate = wav.readUInt32LE(off + 12);
      out.bits = wav.readUInt16LE(off + 22);
    } else if (id === 'data') out.dataBytes = size;
    off += 8 + size + (size & 1);
  }
  return out;
}

async function pitchAndLength(description: string) {
  const r = await design({ description, text: TEXT });
  expect(r.status).toBe(200);
  const wav = readWav(Buffer.from(r.body.audio_base64, 'base64'));
  return {
    hz: measureVoice(wav.samples, wav.sampleRate).pitchHz!,
    seconds: r.body.duration_seconds as number,
  };
}

describe('design', () => {
  it('answers a 24 kHz mono PCM16 WAV whose header and duration_seconds agree, with gen_ms and rtf', async () => {
    const r = await design({ description: 'a friendly young woman', text: TEXT });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sample_rate: 24000, format: 'wav', gen_ms: expect.any(Number) });
    const wav = Buffer.from(r.body.audio_base64, 'base64');
    const hd = wavHeader(wav);
    expect(hd).toMatchObject({ format: 1, channels: 1, sampleRate: 24000, bits: 16 });
    expect(hd.dataBytes).toBe(wav.length - 44);
    expect(Math.abs(hd.dataBytes / 2 / 24000 - r.body.duration_seconds)).toBeLessThan(0.002);
    expect(r.body.duration_seconds).toBeGreaterThan(2);
    expect(r.body.rtf).toBeCloseTo(r.body.gen_ms / 1000 / r.body.duration_seconds, 3);
  });

  it('maps gender, age and pitch words onto the voice: deep old man low, high-pitched girl high', async () => {
    const man = await pitchAndLength('a deep-voiced old man');
    const woman = await pitchAndLength('a woman');
    const girl = await pitchAndLength('a high-pitched little girl');
    expect(man.hz).toBeLessThan(110);
    expect(woman.hz).toBeGreaterThan(150);
    expect(girl.hz).toBeGreaterThan(woman.hz * 1.3);
  });

  it('maps pace words onto the rate, and the same description always gives the same audio', async () => {
    const fast = await pitchAndLength('a fast, energetic presenter');
    const slow = await pitchAndLength('a slow and calm narrator');
    expect(slow.seconds).toBeGreaterThan(fast.seconds * 1.3);
    const a = await design({ description: 'a calm Scottish man', text: 'Hello.' });
    const b = await design({
      description: 'a calm Scottish man',
      text: 'Hello.',
      temperature: 0.2,
      top_p: 1,
      top_k: 5,
      repetition_penalty: 2,
    });
    expect(a.body.audio_base64).toBe(b.body.audio_base64);
  });

  it('max_new_tokens bounds the audio (20 ms per token)', async () => {
    const r = await design({ description: 'a man', text: TEXT, max_new_tokens: 50 });
    expect(r.status).toBe(200);
    expect(r.body.duration_seconds).toBeLessThanOrEqual(1.0);
    expect(r.body.duration_seconds).toBeGreaterThan(0.9);
  });

  it('errors: invalid_json, missing_fields, invalid_request (also text with nothing to say), 401, 403, 502 render_failed', async () => {
    const bad = await h.fetch('/api/v1/design', {
      method: 'POST',
      key: h.emu.keys.secretKey,
      headers: { 'content-type': 'application/json' },
      body: 'nope',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('invalid_json');
    expect((await design({ text: 'hi' })).body).toMatchObject({
      error: 'missing_fields',
      fields: ['description'],
    });
    expect((await design({ description: 'x', text: 'hi', temperature: -1 })).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^temperature/),
    });
    expect((await design({ description: 'x', text: 'y'.repeat(4097) })).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^text/),
    });
    expect((await design({ description: 'x', text: 'hi', max_new_tokens: 0 })).body).toMatchObject({
      error: 'invalid_request',
    });
    // blank text has nothing to say (as on speak), a blank description nothing to design from
    expect((await design({ description: 'a woman', text: '   ' })).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^text/),
    });
    expect((await design({ description: ' \n ', text: 'hi' })).body).toMatchObject({
      error: 'invalid_request',
      detail: expect.stringMatching(/^description/),
    });
    // Text the local voice can say nothing of is the caller's input (issue 19 item 5): a 400 naming the field.
    for (const text of ['你好', '😀😀😀', '!!!']) {
      expect(await design({ description: 'a woman', text })).toMatchObject({
        status: 400,
        body: {
          error: 'invalid_request',
          detail: expect.stringMatching(/^text: nothing .*English/),
        },
      });
    }
    expect((await design({ description: 'x', text: 'hi' }, 'nope')).status).toBe(401);
    const t = await h.api('/api/v1/tokens', {
      body: { name: 'sessions only', scopes: ['sessions:write'] },
    });
    expect((await design({ description: 'x', text: 'hi' }, t.body.token)).body).toMatchObject({
      error: 'forbidden',
    });
    await h.op('/_emulator/generations/faults', {
      method: 'POST',
      body: JSON.stringify({ stage: 'tts' }),
    });
    expect(await design({ description: 'x', text: 'hi' })).toMatchObject({
      status: 502,
      body: { error: 'render_failed' },
    });
    expect((await design({ description: 'x', text: 'hi' })).status).toBe(200);
  });
});
