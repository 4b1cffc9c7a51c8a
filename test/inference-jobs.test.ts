import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';
import { settle, waitUntil } from './helpers/wait.js';

// Jobs, compat-b and the "other" routes of spec 4.12 on a manual clock: work starts only
// when the test moves time, so queue states are observable without sleeping.
const clock = new ManualClock();
const h = useEmulator({ clock, jobConcurrency: 1, inferenceRateLimits: false });
const tick = async () => {
  clock.advance(0);
  await settle();
};
const key = () => h.emu.keys.dashboardKey;
const job = (body: unknown) => h.api('/api/jobs', { key: key(), body });
const get = (id: string) => h.api(`/api/jobs/${id}`, { key: key() });

describe('jobs (spec 4.12, states of spec 3)', () => {
  it('runs jobs one worker at a time in submission order; cancel takes a pending job out', async () => {
    const a = await job({
      model_id: 'avatar-embed',
      task: 'embedding',
      payload: { input: 'first' },
    });
    expect(a.status).toBe(201);
    expect(Object.keys(a.body).sort()).toEqual(['id', 'queue_id']);
    const b = await job({
      model_id: 'avatar-rerank',
      task: 'rerank',
      payload: { query: 'cat', documents: ['a dog', 'a cat'] },
    });
    const c = await job({
      model_id: 'avatar-embed',
      task: 'embedding',
      payload: { input: 'third' },
    });
    expect((await get(a.body.id)).body).toMatchObject({ status: 'pending', queue_position: 1 });
    expect((await get(c.body.id)).body).toMatchObject({ status: 'pending', queue_position: 3 });

    const cancelled = await h.api(`/api/jobs/${c.body.id}/cancel`, { key: key(), method: 'POST' });
    expect(cancelled.body.status).toBe('cancelled');

    await tick(); // one worker: only the first job runs
    expect((await get(a.body.id)).body).toMatchObject({ status: 'completed' });
    expect((await get(a.body.id)).body.result.embeddings[0]).toHaveLength(384);
    expect((await get(b.body.id)).body.status).toBe('pending');
    await tick();
    const done = (await get(b.body.id)).body;
    expect(done.status).toBe('completed');
    expect(done.result.results[0]).toMatchObject({ index: 1, document: 'a cat' });
    await tick();
    expect((await get(c.body.id)).body.status).toBe('cancelled');
    // A finished job cannot be cancelled.
    const late = await h.api(`/api/jobs/${a.body.id}/cancel`, { key: key(), method: 'POST' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('conflict');
  });

  it('a bad payload, an unknown model or a task the model lacks is refused at submission', async () => {
    const bad = await job({
      model_id: 'avatar-image',
      task: 'text-to-image',
      payload: { prompt: '' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', param: 'payload.prompt' });
    const unknown = await job({ model_id: 'nope', task: 'chat' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', type: 'not_found_error' });
    const wrongTask = await job({ model_id: 'avatar-embed', task: 'chat' });
    expect(wrongTask.status).toBe(400);
    expect((await get('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('compat-b (slug format)', () => {
  it('async submission answers a request_id at once; polling shows the result', async () => {
    const r = await h.api('/compat-b/image-v1', {
      key: key(),
      body: { prompt: 'green hills', size: '64x64' },
    });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ status: 'pending' });
    const id = r.body.request_id as string;
    expect((await h.api(`/compat-b/requests/${id}`, { key: key() })).body.status).toBe('pending');
    await tick();
    // PNG compression runs in zlib's thread pool, outside the clock.
    await waitUntil(
      async () =>
        (await h.api(`/compat-b/requests/${id}`, { key: key() })).body.status !== 'processing',
    );
    const done = (await h.api(`/compat-b/requests/${id}`, { key: key() })).body;
    expect(done.status).toBe('completed');
    const png = await fetch(done.result.images[0].url);
    expect(png.headers.get('content-type')).toBe('image/png');
    // Media URLs last one hour (spec 8, built-in image URLs).
    clock.advance(3600 * 1000);
    const gone = await fetch(done.result.images[0].url);
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.code).toBe('not_found');
  });

  it('sync_mode blocks until the result is ready', async () => {
    const pending = h.api('/compat-b/rerank-v1', {
      key: key(),
      body: { sync_mode: true, query: 'red', documents: ['blue sky', 'red apple'] },
    });
    await settle();
    await tick();
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('completed');
    expect(r.body.result.results[0].document).toBe('red apple');
  });

  it("sync_mode past 120 s answers like an async submission, with the job's real status; the job still finishes", async () => {
    // An image job: its PNG is compressed off the event loop, so it is still processing
    // when the 120 s hold ends.
    const pending = h.api('/compat-b/image-v1', {
      key: key(),
      body: { sync_mode: true, prompt: 'slow enough', size: '256x256' },
    });
    await settle();
    clock.advance(120_000); // the worker starts, but the 120 s hold ends first
    const r = await pending;
    expect(r.status).toBe(202);
    expect(r.body.status).toBe('processing');
    expect(r.body.status_url).toContain(`/compat-b/requests/${r.body.request_id}`);
    await waitUntil(
      async () =>
        (await h.api(`/compat-b/requests/${r.body.request_id}`, { key: key() })).body.status ===
        'completed',
    );
  });

  it('batch status answers each id, at most 50', async () => {
    const a = await h.api('/compat-b/embed-v1', { key: key(), body: { input: 'x' } });
    const r = await h.api('/compat-b/requests/batch', {
      key: key(),
      body: { request_ids: [a.body.request_id, 'missing'] },
    });
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { status: string }) => d.status)).toEqual(['pending', 'not_found']);
    const tooMany = await h.api('/compat-b/requests/batch', {
      key: key(),
      body: { request_ids: Array.from({ length: 51 }, (_, i) => `id${i}`) },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.param).toBe('request_ids');
    await tick();
  });

  it('an unknown slug is 404 in the inference format', async () => {
    const r = await h.api('/compat-b/no-such-model', { key: key(), body: {} });
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: 'not_found', type: 'not_found_error' });
  });
});

describe('model status, voices, prompt rewrite', () => {
  it('lists the slugs and tasks that exist, and every slug is usable on compat-b', async () => {
    const r = await h.api('/api/model-status', { key: key() });
    expect(r.status).toBe(200);
    const models = r.body.models as {
      model_id: string;
      spec_id: string;
      enabled: boolean;
      tasks: string[];
    }[];
    expect(models.find((m) => m.model_id === 'avatar-image')).toMatchObject({
      spec_id: 'image-v1',
      enabled: true,
      tasks: ['text-to-image', 'image-edit'],
    });
    expect(models.find((m) => m.model_id === 'avatar-tts')?.enabled).toBe(true);
  });

  it('lists the voices the Voice really has', async () => {
    const r = await h.api('/api/voice/models', { key: key() });
    const tts = r.body.data[0];
    expect(tts).toMatchObject({ model_id: 'avatar-tts', engine: 'flite', enabled: true });
    expect(tts.voices.map((v: { id: string }) => v.id)).toEqual(
      expect.arrayContaining(['slt', 'awb']),
    );
  });

  it('rewrites a prompt keeping the words and adding what an image prompt lacks', async () => {
    const r = await h.api('/api/prompt-rewrite', {
      key: key(),
      body: { prompt: '  a cat   on a roof ' },
    });
    expect(r.status).toBe(200);
    expect(r.body.prompt).toMatch(/^A cat on a roof, /);
    expect(r.body.prompt).toContain('lighting');
    const bad = await h.api('/api/prompt-rewrite', { key: key(), body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('prompt');
  });

  it('publishable-style or missing keys are refused in the inference format', async () => {
    const r = await h.api('/api/model-status', { key: 'not-a-key' });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: 'unauthorized', type: 'authentication_error' });
  });
});
