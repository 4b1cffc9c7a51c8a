import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator, type EmulatorHandle } from './helpers/emulator.js';
import { startReceiver } from './helpers/webhook-receiver.js';

/**
 * Line order and the measured ETA (spec 3, 4.5; issue 7 items 1 and 2), seen as a client
 * that only reads the status route until its ticket is claimable, on a driven clock.
 */
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({ seats: 1, clock, allowInsecureUrls: true, mintRatePerMinute: 0 });
const eta = useEmulator({
  seats: 2,
  clock,
  sessionCapS: 600,
  mintRatePerMinute: 0,
  waiterIdleS: 3600,
  pendingIdleS: 3600,
});
/** Nothing but the defaults (one box of 4 seats, the free plan): what a first try shows. */
const first = useEmulator({});
let rx: Awaited<ReturnType<typeof startReceiver>>;
const held: [EmulatorHandle, { session_id: string; seat_token: string }][] = [];

beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());
afterEach(async () => {
  for (const e of [h, eta, first]) await e.op('/_emulator/queue/drain', { method: 'POST' });
  for (const [e, s] of held.splice(0)) await release(e, s);
});

const nowS = () => Math.floor(clock.now() / 1000);
async function mint(e: EmulatorHandle, body: Record<string, unknown> = {}) {
  const r = await e.client.send('sessions.mint', { body: { persona: 'ava', ...body } });
  if (r.status === 201) held.push([e, r.body]);
  return r;
}
const status = async (e: EmulatorHandle, ticket: string) =>
  (await e.client.send('sessions.queue.status', { params: { ticket } })).body;
const release = (e: EmulatorHandle, s: { session_id: string; seat_token: string }) =>
  e.client.send('sessions.release', {
    params: { sessionId: s.session_id },
    body: { seat_token: s.seat_token },
  });
/** Let `ms` pass in 5 s steps, reading each ticket's status between steps (the only touch). */
async function wait(e: EmulatorHandle, ms: number, tickets: string[]) {
  for (let left = ms; left > 0; left -= 5000) {
    clock.advance(Math.min(5000, left));
    for (const t of tickets) await status(e, t);
  }
}

describe('a free seat never sits idle while a fitting ticket waits (spec 3)', () => {
  it('a lone lapsed ticket is offered the seat again at once; a fresh mint queues behind it; the second lapse drops it', async () => {
    const a = await mint(h);
    expect(a.status).toBe(201);
    const t = (await mint(h, { notify: { url: `${rx.url}/fair` } })).body.queue_ticket as string;
    await release(h, a.body);
    expect(await status(h, t)).toMatchObject({ state: 'claimable', claim_deadline: nowS() + 45 });

    // The first window lapses with nobody else in line: a second window opens at once.
    await wait(h, 45_000, [t]);
    const second = await status(h, t);
    expect(second).toMatchObject({ state: 'claimable', position: 0, retry_after: 0 });
    expect(second.claim_deadline).toBe(nowS() + 45);

    // The seat is the ticket's: a mint without a ticket joins the line instead of taking it.
    const fresh = await mint(h);
    expect(fresh.status).toBe(202);
    expect(fresh.body).toMatchObject({ state: 'waiting', position: 1 });
    const u = fresh.body.queue_ticket as string;

    // The second lapse drops the ticket; the seat goes on to the next waiter.
    await wait(h, 45_000, [t, u]);
    expect(await status(h, t)).toEqual({ state: 'expired', retry_after: 3 });
    expect((await status(h, u)).state).toBe('claimable');
    await vi.waitFor(() =>
      expect(rx.events('queue.dropped').filter((d) => d.path === '/fair')).toHaveLength(1),
    );
    expect(rx.events('queue.dropped').find((d) => d.path === '/fair')!.body.data).toEqual({
      ticket: t,
      reason: 'lapsed',
    });
    expect(rx.events('queue.claimable').filter((d) => d.path === '/fair')).toHaveLength(2);
    expect((await mint(h, { queue_ticket: u })).status).toBe(201);
  });
});

describe('eta_seconds is measured from seat turnover (spec 4.5)', () => {
  it('starts at the documented default, then follows how fast seats free up', async () => {
    const a = await mint(eta);
    const b = await mint(eta);
    expect([a.status, b.status]).toEqual([201, 201]);
    // Before any measurement: default session cap / seats = 600 / 2 = 300 s per place.
    const w1 = await mint(eta);
    const w2 = await mint(eta);
    expect(w1.body).toMatchObject({ position: 1, eta_seconds: 300 });
    expect(w2.body).toMatchObject({ position: 2, eta_seconds: 600 });
    const [t1, t2] = [w1.body.queue_ticket as string, w2.body.queue_ticket as string];

    // While nothing frees, the ETA counts down with the time the line has already waited
    // (a first try must not read "about 300 s" for as long as it waits).
    await wait(eta, 10_000, [t1, t2]);
    expect(await status(eta, t1)).toMatchObject({ position: 1, eta_seconds: 290 });
    expect(await status(eta, t2)).toMatchObject({ position: 2, eta_seconds: 590 });

    // A seat frees 20 s after the box filled up: that is the turnover now.
    await wait(eta, 10_000, [t1, t2]);
    await release(eta, a.body);
    const claimable = await status(eta, t1);
    expect(claimable.state).toBe('claimable');
    expect(claimable.eta_seconds).toBeGreaterThan(0);
    expect(await status(eta, t2)).toMatchObject({ state: 'waiting', position: 1, eta_seconds: 20 });
    expect((await mint(eta, { queue_ticket: t1 })).status).toBe(201);
    const w3 = await mint(eta);
    expect(w3.body).toMatchObject({ position: 2, eta_seconds: 40 });

    // The next seat takes 120 s: the ETA grows with the slower turnover.
    await wait(eta, 120_000, [t2, w3.body.queue_ticket]);
    await release(eta, b.body);
    const slower = await status(eta, w3.body.queue_ticket);
    expect(slower.position).toBe(1);
    expect(slower.eta_seconds).toBeGreaterThan(20);
    expect(slower.eta_seconds).toBeLessThan(120);
  });
});

describe('defaults let a first-time user see the queue (issue 7 item 5)', () => {
  it('the 5th mint with every default waits in line (202), it is not refused (429)', async () => {
    const seated = [];
    for (let i = 0; i < 4; i++) seated.push(await mint(first));
    expect(seated.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const fifth = await mint(first);
    expect(fifth.status).toBe(202);
    expect(fifth.body).toMatchObject({ status: 'queued', state: 'waiting', position: 1 });
    await first.client.send('sessions.queue.cancel', {
      params: { ticket: fifth.body.queue_ticket },
    });
  });
});
