import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { runningBoxes } from '../src/emulator/fleet/spawn.js';
import type { AvatarClient } from '../src/client/client.js';
import { useEmulator } from './helpers/emulator.js';

const clock = new ManualClock(Date.now());
const h = useEmulator({
  seats: 10,
  clock,
  mintRatePerMinute: 3,
  pendingIdleS: 3600,
  demoQuotaMinutes: 1,
  planLimits: { free: { concurrency: 2, maxCapSeconds: 3600 } },
});
let dash: AvatarClient;
let other: AvatarClient;
let demo: AvatarClient;
beforeAll(async () => {
  dash = h.as(h.emu.keys.dashboardKey);
  const ws2 = await dash.call('workspaces.create', { body: { name: 'other' } });
  other = h.as(
    (await dash.call('tokens.create', { body: { name: 'k2', workspaceId: ws2.body.id } })).body
      .token,
  );
  const ws3 = await dash.call('workspaces.create', { body: { name: 'demo', plan: 'demo' } });
  demo = h.as(
    (await dash.call('tokens.create', { body: { name: 'k3', workspaceId: ws3.body.id } })).body
      .token,
  );
});
const release = (c: AvatarClient, m: { session_id: string }) =>
  c.call('sessions.release', { params: { sessionId: m.session_id }, body: {} });

describe('other session routes (spec 4.5)', () => {
  it('transcript: stored turns labelled store, live or ended; secret keys only; 403 across workspaces', async () => {
    const m = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const box = runningBoxes(h.emu.ctx)[0]!;
    await box.connect(m.session_token);
    await box.reportTurn(m.session_id, { seq: 1, user_text: 'hi', reply_text: 'hello' });
    // The turn went to the store only (the box's own log has none): `source` says store
    // (box log ahead of the store or unreadable: test/edge-transcript-source.test.ts).
    const live = await h.client.call('sessions.transcript', {
      params: { sessionId: m.session_id },
    });
    expect(live.body).toEqual({
      session_id: m.session_id,
      source: 'store',
      turns: [{ seq: 1, user_text: 'hi', reply_text: 'hello' }],
      count: 1,
    });
    await box.disconnect(m.session_id);
    expect(
      (await h.client.call('sessions.transcript', { params: { sessionId: m.session_id } })).body
        .source,
    ).toBe('store');
    expect(
      (await other.send('sessions.transcript', { params: { sessionId: m.session_id } })).status,
    ).toBe(403);
    const d = await h.client.call('devices.create', {
      params: { wsId: h.emu.keys.workspaceId },
      body: { name: 'p' },
    });
    expect(
      (
        await h
          .as(d.body.token)
          .send('sessions.transcript', { params: { sessionId: m.session_id } })
      ).status,
    ).toBe(403);
    const noScope = await h.client.call('tokens.create', {
      body: { name: 'r', scopes: ['sessions:read'] },
    });
    const ns = await h
      .as(noScope.body.token)
      .send('sessions.transcript', { params: { sessionId: m.session_id } });
    expect(ns.status).toBe(403);
    expect(ns.body.detail).toBe('missing_scope:transcripts:read');

    // delete: erases turns, anonymizes, idempotent
    const del = await h.client.send('sessions.delete', { params: { sessionId: m.session_id } });
    expect(del.status).toBe(204);
    expect(
      (await h.client.send('sessions.delete', { params: { sessionId: m.session_id } })).status,
    ).toBe(204);
    const t = await h.client.call('sessions.transcript', { params: { sessionId: m.session_id } });
    expect(t.body).toEqual({
      session_id: m.session_id,
      source: 'store',
      turns: [],
      count: 0,
      deleted: true,
    });
    const g = await h.client.call('sessions.get', { params: { sessionId: m.session_id } });
    expect(g.body).toMatchObject({
      status: 'deleted',
      avatar_ref: null,
      voice_ref: null,
      session_token_id: null,
      workspace_id: h.emu.keys.workspaceId,
    });
  });

  it('delete of a live session is 409 session_live; other workspaces get 403 forbidden', async () => {
    const m = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const r = await h.client.send('sessions.delete', { params: { sessionId: m.session_id } });
    expect(r.status).toBe(409);
    expect(r.body.error).toBe('session_live');
    expect((await other.send('sessions.get', { params: { sessionId: m.session_id } })).status).toBe(
      403,
    );
    await release(h.client, m);
  });

  it('heartbeat and release take the seat_token as sole credential', async () => {
    const m = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const anon = h.as(undefined);
    expect(
      (
        await anon.send('sessions.heartbeat', {
          params: { sessionId: m.session_id },
          body: { seat_token: m.seat_token },
        })
      ).body,
    ).toEqual({ ok: true });
    expect(
      (
        await anon.send('sessions.heartbeat', {
          params: { sessionId: m.session_id },
          body: { seat_token: 'seat_wrong' },
        })
      ).status,
    ).toBe(401);
    expect(
      (await anon.send('sessions.release', { params: { sessionId: m.session_id }, body: {} }))
        .status,
    ).toBe(401);
    expect(
      (
        await anon.send('sessions.release', {
          params: { sessionId: m.session_id },
          body: { seat_token: m.seat_token },
        })
      ).body,
    ).toEqual({ ok: true });
    expect(
      (await h.client.call('sessions.get', { params: { sessionId: m.session_id } })).body.status,
    ).toBe('ended');
    // release is idempotent; a heartbeat on an ended session is refused
    expect(
      (
        await anon.send('sessions.release', {
          params: { sessionId: m.session_id },
          body: { seat_token: m.seat_token },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await anon.send('sessions.heartbeat', {
          params: { sessionId: m.session_id },
          body: { seat_token: m.seat_token },
        })
      ).status,
    ).toBe(409);
  });
});

describe('mint guards (spec 7)', () => {
  it('429 concurrency_limit at the plan ceiling: limit, active, retry_after, Retry-After 15, never a ticket', async () => {
    clock.advance(60_000);
    const a = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const b = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const r = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('15');
    expect(r.body).toMatchObject({
      error: 'concurrency_limit',
      limit: 2,
      active: 2,
      retry_after: 15,
    });
    expect(r.body).not.toHaveProperty('queue_ticket');
    await release(h.client, a);
    clock.advance(60_000);
    const capped = await h.client.send('sessions.mint', {
      body: { persona: 'ava', concurrency_cap: 1 },
    });
    expect(capped.body).toMatchObject({ error: 'concurrency_limit', limit: 1, active: 1 });
    await release(h.client, b);
    clock.advance(60_000);
  });

  it('429 rate_limited past the per-key mint guard, until the minute passes', async () => {
    for (let i = 0; i < 3; i++)
      await release(other, (await other.call('sessions.mint', { body: { persona: 'ava' } })).body);
    const r = await other.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe('rate_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(60_000);
    const ok = await other.send('sessions.mint', { body: { persona: 'ava' } });
    expect(ok.status).toBe(201);
    await release(other, ok.body);
  });

  it('402 when the demo tier minutes are used up, with reset_at and retry_after; the cap is lowered by what is left', async () => {
    const m = (await demo.call('sessions.mint', { body: { persona: 'ava' } })).body;
    expect(m.cap_seconds).toBe(60);
    await runningBoxes(h.emu.ctx)[0]!.connect(m.session_token);
    clock.advance(45_000);
    await release(demo, m);
    const n = (await demo.call('sessions.mint', { body: { persona: 'ava' } })).body;
    expect(n.cap_seconds).toBe(15);
    await runningBoxes(h.emu.ctx)[0]!.connect(n.session_token);
    clock.advance(15_000);
    const r = await demo.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(402);
    const nowS = Math.floor(clock.now() / 1000);
    expect(r.body).toMatchObject({
      error: 'quota_exhausted',
      reset_at: nowS - (nowS % 86400) + 86400,
    });
    expect(r.body.retry_after).toBe(r.body.reset_at - nowS);
  });
});
