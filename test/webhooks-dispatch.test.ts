import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { AvatarClient } from '../src/client/client.js';
import { startEmulator } from '../src/emulator/start.js';
import { useEmulator } from './helpers/emulator.js';

/** Webhook delivery edges: a receiver that never answers, and the wait horizon of the line. */
describe('webhook delivery', () => {
  it('stopping the emulator does not wait for a receiver that never answers', async () => {
    const held: ServerResponse[] = [];
    const rx = createServer((_req, res) => void held.push(res));
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;
    const emu = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      inMemory: true,
      seats: 1,
      allowInsecureUrls: true,
      webhookTimeoutMs: 120_000,
    });
    const client = new AvatarClient({ baseUrl: emu.baseUrl, apiKey: emu.keys.secretKey });
    try {
      await client.call('webhooks.create', {
        params: { wsId: emu.keys.workspaceId },
        body: { url, events: ['queue.*'] },
      });
      const a = (await client.call('sessions.mint', { body: { persona: 'ava' } })).body;
      await client.send('sessions.mint', { body: { persona: 'ava' } });
      await client.call('sessions.release', { params: { sessionId: a.session_id }, body: {} });
      await vi.waitFor(() => expect(held.length).toBe(1));
      await client.close();
      await emu.stop();
      // stop resolved while the delivery was still unanswered
      expect(held[0]!.writableEnded).toBe(false);
    } finally {
      await emu.stop();
      await new Promise<void>((r) => {
        rx.close(() => r());
        rx.closeAllConnections();
      });
    }
  }, 15_000);
});

describe('wait horizon', () => {
  const h = useEmulator({
    seats: 1,
    queueMaxWaiters: 2,
    mintRatePerMinute: 0,
    planLimits: { free: { concurrency: 100, maxCapSeconds: 3600 } },
  });
  it('a line full past the horizon answers 503 fleet_busy (terminal, retryable, message), no ticket', async () => {
    expect((await h.client.send('sessions.mint', { body: { persona: 'ava' } })).status).toBe(201);
    expect((await h.client.send('sessions.mint', { body: { persona: 'ava' } })).status).toBe(202);
    expect((await h.client.send('sessions.mint', { body: { persona: 'ava' } })).status).toBe(202);
    const r = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({
      error: 'fleet_busy',
      retryable: true,
      message: expect.any(String),
    });
    expect(r.body).not.toHaveProperty('queue_ticket');
  });
});
