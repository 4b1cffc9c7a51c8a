import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { startEmulator } from '../src/emulator/start.js';
import { apiCall } from './helpers/emulator.js';
import { settle, waitUntil } from './helpers/wait.js';

describe('jobs on the pluggable parts, and across a restart', () => {
  it('chat, text-to-speech and image-edit jobs answer with the Brain, the Voice and the image model', async () => {
    const clock = new ManualClock();
    const emu = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      inMemory: true,
      clock,
      inferenceRateLimits: false,
    });
    try {
      const key = emu.keys.dashboardKey;
      const submit = async (body: unknown) =>
        (await apiCall(emu, '/api/jobs', { key, body })).body.id as string;
      const chat = await submit({
        model_id: 'avatar-chat',
        task: 'chat',
        payload: { messages: [{ role: 'user', content: 'Hello! What is your name?' }] },
      });
      const tts = await submit({
        model_id: 'avatar-tts',
        task: 'text-to-speech',
        payload: { input: 'Good morning', voice: 'awb' },
      });
      const pic = await submit({
        model_id: 'avatar-image',
        task: 'text-to-image',
        payload: { prompt: 'grey wall', size: '64x64' },
      });
      const get = async (id: string) => (await apiCall(emu, `/api/jobs/${id}`, { key })).body;
      // flite, ffmpeg and zlib run outside the clock: move it until all three are done.
      await waitUntil(async () => {
        clock.advance(0);
        await settle();
        return (await Promise.all([chat, tts, pic].map(get))).every(
          (j) => j.status === 'completed' || j.status === 'failed',
        );
      }, 20_000);
      const c = await get(chat);
      expect(c.status).toBe('completed');
      expect(c.result.text.length).toBeGreaterThan(0);
      expect(c.result.usage.total_tokens).toBeGreaterThan(0);
      const t = await get(tts);
      expect(t.result.audio).toMatchObject({ content_type: 'audio/wav', voice: 'awb' });
      expect(t.result.audio.duration_s).toBeGreaterThan(0.3);
      const wav = Buffer.from(await (await fetch(t.result.audio.url)).arrayBuffer());
      expect(wav.subarray(0, 4).toString()).toBe('RIFF');
      const imageUrl = (await get(pic)).result.images[0].url;
      const edit = await submit({
        model_id: 'avatar-image',
        task: 'image-edit',
        payload: { prompt: 'yellow sun', image_url: imageUrl },
      });
      await waitUntil(async () => {
        clock.advance(0);
        await settle();
        return (await get(edit)).status !== 'pending' && (await get(edit)).status !== 'processing';
      });
      const e = await get(edit);
      expect(e.status).toBe('completed');
      expect(e.result.images[0]).toMatchObject({ width: 64, height: 64 });
      expect(e.result.images[0].url).not.toBe(imageUrl);
    } finally {
      await emu.stop();
    }
  }, 30_000);

  it('a job still pending when the emulator stops runs at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'avatar-jobs-restart-'));
    const first = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      clock: new ManualClock(),
      inferenceRateLimits: false,
    });
    const key = first.keys.dashboardKey;
    const id = (
      await apiCall(first, '/api/jobs', {
        key,
        body: { model_id: 'avatar-embed', task: 'embedding', payload: { input: 'kept' } },
      })
    ).body.id;
    expect((await apiCall(first, `/api/jobs/${id}`, { key })).body.status).toBe('pending');
    await first.stop();
    const clock = new ManualClock();
    const second = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      clock,
      inferenceRateLimits: false,
    });
    try {
      clock.advance(0);
      await settle();
      const row = (await apiCall(second, `/api/jobs/${id}`, { key })).body;
      expect(row.status).toBe('completed');
      expect(row.result.embeddings[0]).toHaveLength(384);
    } finally {
      await second.stop();
    }
  });
});
