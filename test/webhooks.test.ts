import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';
import { startReceiver } from './helpers/webhook-receiver.js';

let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('https only by default', () => {
  const h = useEmulator({ seats: 0 });
  it('refuses plain-http notify URLs and endpoints without --allow-insecure-urls', async () => {
    const n = await h.client.send('sessions.mint', {
      body: { persona: 'ava', notify: { url: `${rx.url}/x` } },
    });
    expect(n.body.error).toBe('invalid_notify_url');
    expect(n.body.message).toContain('--allow-insecure-urls');
    const e = await h.client.send('webhooks.create', {
      params: { wsId: h.emu.keys.workspaceId },
      body: { url: `${rx.url}/x`, events: ['queue.*'] },
    });
    expect(e.status).toBe(400);
    expect(e.body).toMatchObject({ error: 'invalid_request', detail: 'url: must be https' });
    expect(e.body.message).toContain('--allow-insecure-urls');
    // the tenant hook (spec 2 "Agent object"): the spec's code, and the flag named
    const a = await h.client.send('sessions.mint', {
      body: { persona: 'ava', agent: { hook: `${rx.url}/hook` } },
    });
    expect(a.status).toBe(400);
    expect(a.body.error).toBe('invalid_agent_hook');
    expect(a.body.message).toContain('--allow-insecure-urls');
    // a notify URL too long is refused for its length, not for its scheme
    const long = await h.client.send('sessions.mint', {
      body: { persona: 'ava', notify: { url: `https://hooks.example/${'a'.repeat(2100)}` } },
    });
    expect(long.body.error).toBe('invalid_notify_url');
    expect(long.body.message).not.toContain('--allow-insecure-urls');
    const ok = await h.client.send('webhooks.create', {
      params: { wsId: h.emu.keys.workspaceId },
      body: { url: 'https://hooks.example/q', events: ['queue.claimable'] },
    });
    expect(ok.status).toBe(201);
  });
});

describe('workspace endpoints and delivery retries (spec 6.3)', () => {
  const clock = new ManualClock(Date.now());
  const h = useEmulator({ seats: 1, clock, allowInsecureUrls: true });
  const ws = () => h.emu.keys.workspaceId;

  it('create returns the record and its secret once; list hides it; bad events are 400; delete is 204', async () => {
    const c = await h.client.call('webhooks.create', {
      params: { wsId: ws() },
      body: { url: `${rx.url}/a`, events: ['queue.dropped', 'queue.dropped'], description: 'ops' },
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      workspace_id: ws(),
      url: `${rx.url}/a`,
      events: ['queue.dropped'],
      description: 'ops',
      status: 'active',
    });
    expect(c.body.secret).toMatch(/^whsec_/);
    const l = await h.client.call('webhooks.list', { params: { wsId: ws() } });
    expect(l.body.data).toHaveLength(1);
    expect(l.body.data[0]).not.toHaveProperty('secret');
    const bad = await h.client.send('webhooks.create', {
      params: { wsId: ws() },
      body: { url: `${rx.url}/a`, events: ['session.started'] },
    });
    expect(bad.status).toBe(400);
    const noScope = await h.client.call('tokens.create', {
      body: { name: 'r', scopes: ['sessions:write'] },
    });
    expect(
      (
        await h.as(noScope.body.token).send('webhooks.create', {
          params: { wsId: ws() },
          body: { url: `${rx.url}/a`, events: ['queue.*'] },
        })
      ).status,
    ).toBe(403);
    expect(
      (await h.client.send('webhooks.delete', { params: { wsId: ws(), webhookId: c.body.id } }))
        .status,
    ).toBe(204);
    expect(
      (await h.client.send('webhooks.delete', { params: { wsId: ws(), webhookId: c.body.id } }))
        .status,
    ).toBe(204);
    expect((await h.client.call('webhooks.list', { params: { wsId: ws() } })).body.data).toEqual(
      [],
    );
  });

  it('a failing receiver gets the same signed body again at once, after 2 s and after 5 s, then nothing', async () => {
    const ep = await h.client.call('webhooks.create', {
      params: { wsId: ws() },
      body: { url: `${rx.url}/retry`, events: ['queue.dropped'], secret: 'a-long-enough-secret' },
    });
    await h.client.call('sessions.mint', { body: { persona: 'ava' } });
    const t = (await h.client.send('sessions.mint', { body: { persona: 'ava' } })).body;
    rx.failNext(2);
    const sent = clock.now();
    await h.op('/_emulator/queue/drain', { method: 'POST' });
    const all = () => rx.deliveries.filter((d) => d.path === '/retry');
    await vi.waitFor(() => expect(all()).toHaveLength(1));
    const attempts = async () =>
      (await (await h.op('/_emulator/webhooks/deliveries')).json()).data.find(
        (d: { url: string }) => d.url === `${rx.url}/retry`,
      ).attempts.length;
    clock.advance(1999);
    expect(await attempts()).toBe(1);
    clock.advance(1);
    await vi.waitFor(() => expect(all()).toHaveLength(2));
    clock.advance(3000);
    await vi.waitFor(() => expect(all()).toHaveLength(3));
    const bodies = all().map((d) => d.raw.toString());
    expect(new Set(bodies).size).toBe(1);
    expect(all().every((d) => d.verify('a-long-enough-secret'))).toBe(true);
    expect(all()[2]!.body).toEqual({
      event: 'queue.dropped',
      workspace_id: ws(),
      data: { ticket: t.queue_ticket, reason: 'drained' },
      timestamp: sent,
    });
    const log = await (await h.op('/_emulator/webhooks/deliveries')).json();
    const rec = log.data.find((d: { url: string }) => d.url === `${rx.url}/retry`);
    expect(rec).toMatchObject({ outcome: 'delivered', via: ep.body.id });
    expect(rec.attempts.map((a: { status: number }) => a.status)).toEqual([500, 500, 200]);
  });
});
