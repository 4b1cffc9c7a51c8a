import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { addBox, removeBox, runningBoxes } from '../src/emulator/fleet/spawn.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Concurrent requests against one emulator: the plan ceiling and the seats hold when mints
 * arrive together, and a box that leaves takes no claimable ticket with it.
 */
const clock = new ManualClock(Date.now());
const h = useEmulator({
  seats: 2,
  clock,
  mintRatePerMinute: 0,
  pendingIdleS: 1_000_000,
  waiterIdleS: 1_000_000,
  planLimits: { free: { concurrency: 1, maxCapSeconds: 3600 } },
});

const mint = (body: Record<string, unknown> = {}) =>
  h.client.send('sessions.mint', { body: { persona: 'ava', ...body } });
const release = (m: { session_id: string; seat_token: string }) =>
  h.client.call('sessions.release', {
    params: { sessionId: m.session_id },
    body: { seat_token: m.seat_token },
  });

describe('races', () => {
  it('mints sent together never exceed the plan ceiling (429 concurrency_limit for the rest)', async () => {
    const rs = await Promise.all([mint(), mint(), mint(), mint()]);
    const codes = rs.map((r) => r.status).sort();
    expect(codes).toEqual([201, 429, 429, 429]);
    for (const r of rs) if (r.status === 429) expect(r.body.error).toBe('concurrency_limit');
    for (const r of rs) if (r.status === 201) await release(r.body);
  });

  it('the same in-process (no socket between the requests)', async () => {
    const req = () =>
      h.emu.app.request('/api/v1/sessions', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${h.emu.keys.secretKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ persona: 'ava' }),
      });
    const rs = await Promise.all([req(), req(), req()]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 429, 429]);
    for (const r of rs)
      if (r.status === 201)
        await release((await r.json()) as { session_id: string; seat_token: string });
  });

  it('releasing twice is fine and frees one seat only', async () => {
    const a = (await mint()).body;
    expect((await release(a)).body).toEqual({ ok: true });
    expect((await release(a)).body).toEqual({ ok: true });
    const boxes = await (await h.op('/_emulator/boxes')).json();
    expect(boxes.data[0]).toMatchObject({ held: 0, reserved: 0, free: 2 });
  });
});

describe('a box leaves while a ticket holds a reservation on it', () => {
  it('the ticket goes back to waiting (not claimable on a dead box); the next seat elsewhere is its', async () => {
    // Lift the ceiling for this part: a pro workspace.
    const dash = h.as(h.emu.keys.dashboardKey);
    const ws = (await dash.call('workspaces.create', { body: { name: 'pro', plan: 'pro' } })).body;
    const c = h.as(
      (await dash.call('tokens.create', { body: { name: 'pro', workspaceId: ws.id } })).body.token,
    );
    const only = runningBoxes(h.emu.ctx)[0]!;
    const m1 = (await c.send('sessions.mint', { body: { persona: 'ava' } })).body;
    const m2 = (await c.send('sessions.mint', { body: { persona: 'ava' } })).body;
    const q = await c.send('sessions.mint', { body: { persona: 'ava' } });
    expect(q.status).toBe(202);
    await c.call('sessions.release', {
      params: { sessionId: m1.session_id },
      body: { seat_token: m1.seat_token },
    });
    expect(
      (await c.call('sessions.queue.status', { params: { ticket: q.body.queue_ticket } })).body
        .state,
    ).toBe('claimable');

    await removeBox(h.emu.ctx, only.id);
    const s = (await c.call('sessions.queue.status', { params: { ticket: q.body.queue_ticket } }))
      .body;
    expect(s.state).toBe('waiting');
    expect(s).not.toHaveProperty('claim_deadline');
    // no box: the re-POST is the fleet's answer, never a session on the dead box
    const r = await c.send('sessions.mint', {
      body: { persona: 'ava', queue_ticket: q.body.queue_ticket },
    });
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('fleet_busy');

    const fresh = await addBox(h.emu.ctx, { seats: 1 });
    const s2 = (await c.call('sessions.queue.status', { params: { ticket: q.body.queue_ticket } }))
      .body;
    expect(s2.state).toBe('claimable');
    const claimed = await c.send('sessions.mint', {
      body: { persona: 'ava', queue_ticket: q.body.queue_ticket },
    });
    expect(claimed.status).toBe(201);
    expect(claimed.body.connect_url).toBe(fresh.baseUrl);
    void m2;
  });
});
