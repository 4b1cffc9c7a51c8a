import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';
import { startReceiver } from './helpers/webhook-receiver.js';

/**
 * Every row of spec 3's queue ticket table against a real emulator (one box, one seat),
 * time driven by a ManualClock, webhooks received by a real local HTTP receiver.
 */
const clock = new ManualClock(Date.now());
// The held seat stays held while the clock runs (no idle reaper): a seat freed mid-test
// would go to the waiter at once (issue 7: a free seat never sits idle while a ticket waits).
const h = useEmulator({ seats: 1, clock, allowInsecureUrls: true, pendingIdleS: 3600 });
let rx: Awaited<ReturnType<typeof startReceiver>>;
const held: { session_id: string; seat_token: string }[] = [];

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(async () => {
  await h.op('/_emulator/queue/drain', { method: 'POST' });
  for (const s of held.splice(0))
    await h.client.send('sessions.release', {
      params: { sessionId: s.session_id },
      body: { seat_token: s.seat_token },
    });
});

const nowS = () => Math.floor(clock.now() / 1000);

async function mint(body: Record<string, unknown> = {}) {
  const r = await h.client.send('sessions.mint', { body: { persona: 'ava', ...body } });
  if (r.status === 201) held.push(r.body);
  return r;
}
const status = async (ticket: string) =>
  (await h.client.send('sessions.queue.status', { params: { ticket } })).body;
const release = (s: { session_id: string; seat_token: string }) =>
  h.client.send('sessions.release', {
    params: { sessionId: s.session_id },
    body: { seat_token: s.seat_token },
  });
/** Advance the clock in steps, reading the given tickets' status between steps (liveness touches). */
async function advanceTouching(ms: number, tickets: string[], step = 5000) {
  for (let left = ms; left > 0; left -= step) {
    clock.advance(Math.min(step, left));
    for (const t of tickets) await status(t);
  }
}
const hooks = (path: string, event?: string) => rx.events(event).filter((d) => d.path === path);

describe('queue ticket states (spec 3)', () => {
  it('(none) -> waiting: 202 with Retry-After, ticket, position, measured eta', async () => {
    expect((await mint()).status).toBe(201);
    const q = await mint();
    expect(q.status).toBe(202);
    expect(q.headers['retry-after']).toBe('3');
    expect(q.body).toMatchObject({
      status: 'queued',
      position: 1,
      retry_after: 3,
      state: 'waiting',
    });
    expect(q.body.queue_ticket).toMatch(/^qt_/);
    expect(q.body.eta_seconds).toBeGreaterThan(0);
    expect(q.body).not.toHaveProperty('claim_deadline');
    expect(await status(q.body.queue_ticket)).toMatchObject({
      state: 'waiting',
      position: 1,
      retry_after: 3,
    });
  });

  it('waiting -> claimable when a seat frees (queue.claimable, signed); re-POST with the ticket claims', async () => {
    const a = await mint();
    const q = await mint({ notify: { url: `${rx.url}/claim`, secret: 'claim-secret' } });
    expect(q.status).toBe(202);
    await release(a.body);
    const s = await status(q.body.queue_ticket);
    expect(s).toMatchObject({ state: 'claimable', claim_deadline: nowS() + 45, retry_after: 0 });
    expect(s.eta_seconds).toBeGreaterThan(0);
    await vi.waitFor(() => expect(hooks('/claim', 'queue.claimable')).toHaveLength(1));
    const d = hooks('/claim', 'queue.claimable')[0]!;
    expect(d.verify('claim-secret')).toBe(true);
    expect(d.body).toEqual({
      event: 'queue.claimable',
      workspace_id: h.emu.keys.workspaceId,
      data: {
        ticket: q.body.queue_ticket,
        position: 0,
        claim_deadline: nowS() + 45,
        pod_host: expect.any(String),
      },
      timestamp: clock.now(),
    });
    const claimed = await mint({ queue_ticket: q.body.queue_ticket });
    expect(claimed.status).toBe(201);
    expect(await status(q.body.queue_ticket)).toEqual({ state: 'expired', retry_after: 3 });
  });

  it('claim window lapses: first lapse -> waiting and the seat goes to the next waiter; second lapse drops (lapsed)', async () => {
    const a = await mint();
    const t = await mint({ notify: { url: `${rx.url}/lapse` } });
    const u = await mint();
    await release(a.body);
    expect((await status(t.body.queue_ticket)).state).toBe('claimable');
    await advanceTouching(45_000, [t.body.queue_ticket, u.body.queue_ticket]);
    expect(await status(t.body.queue_ticket)).toMatchObject({ state: 'waiting', position: 1 });
    expect((await status(u.body.queue_ticket)).state).toBe('claimable');
    const b = await mint({ queue_ticket: u.body.queue_ticket });
    expect(b.status).toBe(201);
    await release(b.body);
    expect((await status(t.body.queue_ticket)).state).toBe('claimable');
    await advanceTouching(45_000, [t.body.queue_ticket]);
    expect(await status(t.body.queue_ticket)).toEqual({ state: 'expired', retry_after: 3 });
    await vi.waitFor(() => expect(hooks('/lapse', 'queue.dropped')).toHaveLength(1));
    expect(hooks('/lapse', 'queue.dropped')[0]!.body.data).toEqual({
      ticket: t.body.queue_ticket,
      reason: 'lapsed',
    });
    // unsigned: the notify block had no secret (spec 5.8)
    expect(hooks('/lapse', 'queue.dropped')[0]!.headers['x-signature-256']).toBeUndefined();
  });

  it('no poll for 12 s expires a waiter (queue.dropped idle to a workspace endpoint)', async () => {
    const ep = await h.client.call('webhooks.create', {
      params: { wsId: h.emu.keys.workspaceId },
      body: { url: `${rx.url}/ws`, events: ['queue.*'] },
    });
    try {
      await mint();
      const t = await mint();
      clock.advance(11_000);
      expect((await status(t.body.queue_ticket)).state).toBe('waiting');
      clock.advance(12_000);
      expect((await status(t.body.queue_ticket)).state).toBe('expired');
      await vi.waitFor(() => expect(hooks('/ws', 'queue.dropped')).toHaveLength(1));
      const d = hooks('/ws', 'queue.dropped')[0]!;
      expect(d.body.data).toEqual({ ticket: t.body.queue_ticket, reason: 'idle' });
      expect(d.verify(ep.body.secret)).toBe(true);
    } finally {
      await h.client.send('webhooks.delete', {
        params: { wsId: h.emu.keys.workspaceId, webhookId: ep.body.id },
      });
    }
  });

  it('with a notify block the waiter lives 300 s without polling', async () => {
    await mint();
    const t = await mint({ notify: { url: `${rx.url}/idle` } });
    clock.advance(299_000);
    expect((await status(t.body.queue_ticket)).state).toBe('waiting');
    clock.advance(300_000);
    expect((await status(t.body.queue_ticket)).state).toBe('expired');
    await vi.waitFor(() => expect(hooks('/idle', 'queue.dropped')).toHaveLength(1));
    expect(hooks('/idle', 'queue.dropped')[0]!.body.data.reason).toBe('idle');
  });

  it('DELETE expires the ticket (204, also for unknown ones) and the reserved seat goes to the next waiter', async () => {
    const a = await mint();
    const t = await mint();
    const u = await mint();
    await release(a.body);
    expect((await status(t.body.queue_ticket)).state).toBe('claimable');
    const del = await h.client.send('sessions.queue.cancel', {
      params: { ticket: t.body.queue_ticket },
    });
    expect(del.status).toBe(204);
    expect(await status(t.body.queue_ticket)).toEqual({ state: 'expired', retry_after: 3 });
    expect((await status(u.body.queue_ticket)).state).toBe('claimable');
    expect(
      (await h.client.send('sessions.queue.cancel', { params: { ticket: 'qt_nope' } })).status,
    ).toBe(204);
  });

  it('operator drain expires every ticket (queue.dropped drained)', async () => {
    await mint();
    const t = await mint({ notify: { url: `${rx.url}/drain` } });
    const u = await mint({ notify: { url: `${rx.url}/drain` } });
    const r = await h.op('/_emulator/queue/drain', { method: 'POST' });
    expect(await r.json()).toEqual({ ok: true, drained: 2 });
    expect((await status(t.body.queue_ticket)).state).toBe('expired');
    await vi.waitFor(() => expect(hooks('/drain', 'queue.dropped')).toHaveLength(2));
    expect(
      hooks('/drain', 'queue.dropped')
        .map((d) => d.body.data)
        .sort((x, y) => String(x.ticket).localeCompare(String(y.ticket))),
    ).toEqual(
      [t.body.queue_ticket, u.body.queue_ticket]
        .sort()
        .map((ticket) => ({ ticket, reason: 'drained' })),
    );
  });

  it('expired -> waiting at the back: re-POST without a ticket, or with a dead one', async () => {
    await mint();
    const t = await mint();
    const u = await mint();
    await h.client.send('sessions.queue.cancel', { params: { ticket: t.body.queue_ticket } });
    const back = await mint({ queue_ticket: t.body.queue_ticket });
    expect(back.status).toBe(202);
    expect(back.body.queue_ticket).not.toBe(t.body.queue_ticket);
    expect(back.body.position).toBe(2);
    expect((await status(u.body.queue_ticket)).position).toBe(1);
    const fresh = await mint();
    expect(fresh.body.position).toBe(3);
  });

  it('status is always 200: unknown and other-workspace tickets read expired, without position or eta', async () => {
    await mint();
    const t = await mint();
    expect(await status('qt_unknown')).toEqual({ state: 'expired', retry_after: 3 });
    const dash = h.as(h.emu.keys.dashboardKey);
    const ws2 = await dash.call('workspaces.create', { body: { name: 'other' } });
    const key2 = await dash.call('tokens.create', {
      body: { name: 'k2', workspaceId: ws2.body.id },
    });
    const other = h.as(key2.body.token);
    const r = await other.send('sessions.queue.status', {
      params: { ticket: t.body.queue_ticket },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ state: 'expired', retry_after: 3 });
    // and a foreign cancel does nothing
    expect(
      (await other.send('sessions.queue.cancel', { params: { ticket: t.body.queue_ticket } }))
        .status,
    ).toBe(204);
    expect((await status(t.body.queue_ticket)).state).toBe('waiting');
  });
});
