import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';

// Issue 11 review: what a new user sees when a field is missing or malformed.
const clock = new ManualClock();
const h = useEmulator({ clock, jobConcurrency: 1, inferenceRateLimits: false });
const key = () => h.emu.keys.dashboardKey;

describe('missing and malformed fields', () => {
  it('a missing field is named as required, on jobs, compat-b and compat-a alike', async () => {
    const job = await h.api('/api/jobs', { key: key(), body: { model_id: 'avatar-embed', task: 'embedding', payload: {} } });
    expect(job.status).toBe(400);
    expect(job.body.error).toMatchObject({ code: 'invalid_request', param: 'payload.input' });
    expect(job.body.error.message).toMatch(/^payload\.input: required/);
    const slug = await h.api('/compat-b/embed-v1', { key: key(), body: {} });
    expect(slug.status).toBe(400);
    expect(slug.body.error.message).toMatch(/^input: required/);
    const chat = await h.api('/compat-a/v1/chat/completions', { key: key(), body: { model: 'avatar-chat' } });
    expect(chat.status).toBe(400);
    expect(chat.body.error).toMatchObject({ param: 'messages' });
    expect(chat.body.error.message).toMatch(/^messages: required/);
  });

  it('an image size or audio URL the job could never use is refused at submission, not failed later', async () => {
    const size = await h.api('/compat-b/image-v1', { key: key(), body: { prompt: 'a kite', size: 'bogus' } });
    expect(size.status).toBe(400);
    expect(size.body.error).toMatchObject({ code: 'invalid_request', param: 'size' });
    expect(size.body.error.message).toContain('WIDTHxHEIGHT');
    const job = await h.api('/api/jobs', { key: key(), body: { model_id: 'avatar-image', task: 'text-to-image', payload: { prompt: 'x', size: '10x10' } } });
    expect(job.status).toBe(400);
    expect(job.body.error).toMatchObject({ param: 'payload.size' });
    const audio = await h.api('/compat-b/asr-v1', { key: key(), body: { audio_url: 'http://example.com/a.wav' } });
    expect(audio.status).toBe(400);
    expect(audio.body.error).toMatchObject({ param: 'audio_url' });
  });
});
