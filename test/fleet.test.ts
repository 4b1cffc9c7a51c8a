import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { addBox, removeBox, runningBoxes } from '../src/emulator/fleet/spawn.js';
import { useEmulator } from './helpers/emulator.js';

/** Boxes and seats (issue 4 deliverable 1) and the fleet errors of spec 7. */

describe('no box registered', () => {
  const h = useEmulator({ boxes: 0 });
  it('mint answers 503 fleet_busy (terminal: message and retryable)', async () => {
    const r = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({
      error: 'fleet_busy',
      retryable: true,
      message: expect.any(String),
    });
    expect(r.body).not.toHaveProperty('queue_ticket');
  });
  it('a box that registers later takes mints', async () => {
    await addBox(h.emu.ctx, { seats: 1 });
    const r = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(201);
    expect(r.body.connect_url).toBe(runningBoxes(h.emu.ctx)[0]!.baseUrl);
  });
});

describe('box capabilities', () => {
  const h = useEmulator({
    boxes: 1,
    boxCapabilities: [{ protocols: [1], customAvatars: false }],
    mintRatePerMinute: 0,
  });
  const customAvatar = async () => {
    const a = await h.client.call('avatars.create', { body: { name: 'mine', kind: 'custom' } });
    await h.client.call('versions.create', {
      params: { avatarId: a.body.id },
      body: { source_persona: 'ava' },
    });
    return a.body.id as string;
  };

  it('503 protocol_unavailable when no box speaks v2; v1 still works', async () => {
    const r = await h.client.send('sessions.mint', {
      body: { persona: 'ava', protocol_versions: [2] },
    });
    expect(r.status).toBe(503);
    expect(r.body.error).toBe('protocol_unavailable');
    const ok = await h.client.send('sessions.mint', {
      body: { persona: 'ava', protocol_versions: [1, 2] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.protocol_version).toBe(1);
    await h.client.call('sessions.release', {
      params: { sessionId: ok.body.session_id },
      body: { seat_token: ok.body.seat_token },
    });
  });

  it('422 custom_avatar_unsupported when every renderer is unsupported; 503 custom_avatar_unavailable when none is verified', async () => {
    const id = await customAvatar();
    const r = await h.client.send('sessions.mint', { body: { avatar_id: id } });
    expect(r.status).toBe(422);
    expect(r.body.error).toBe('custom_avatar_unsupported');
    const unverified = await addBox(h.emu.ctx, { customAvatars: true, verified: false });
    const u = await h.client.send('sessions.mint', { body: { avatar_id: id } });
    expect(u.status).toBe(503);
    expect(u.body).toMatchObject({ error: 'custom_avatar_unavailable', retryable: true });
    // stock personas still work
    const stock = await h.client.send('sessions.mint', { body: { persona: 'leo' } });
    expect(stock.status).toBe(201);
    await h.client.call('sessions.release', {
      params: { sessionId: stock.body.session_id },
      body: {},
    });
    await removeBox(h.emu.ctx, unverified.id);
    const verified = await addBox(h.emu.ctx, {
      customAvatars: true,
      verified: true,
      maxCapSeconds: 90,
    });
    const ok = await h.client.send('sessions.mint', { body: { avatar_id: id } });
    expect(ok.status).toBe(201);
    expect(ok.body.connect_url).toBe(verified.baseUrl);
    expect(ok.body.cap_seconds).toBe(90);
  });
});

describe('seats, seat events and the reaper', () => {
  const clock = new ManualClock(Date.now());
  const h = useEmulator({ boxes: 1, seats: 2, clock, pendingIdleS: 60, mintRatePerMinute: 0 });
  const mint = async (body: Record<string, unknown> = {}) =>
    (await h.client.call('sessions.mint', { body: { persona: 'ava', ...body } })).body;
  const statusOf = async (id: string) =>
    (await h.client.call('sessions.get', { params: { sessionId: id } })).body.status;
  const box = () => runningBoxes(h.emu.ctx)[0]!;

  it('registers over the internal box API with its own secret; a wrong secret is 401', async () => {
    const boxes = await (await h.op('/_emulator/boxes')).json();
    expect(boxes.data).toEqual([
      expect.objectContaining({ id: box().id, seats: 2, live: true, protocols: [1, 2] }),
    ]);
    const r = await h.fetch(`/_internal/boxes/${box().id}/register`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong' },
      body: '{}',
    });
    expect(r.status).toBe(401);
  });

  it('connect makes the session active; socket close frees the seat for the queue', async () => {
    const a = await mint();
    const b = await mint();
    const q = (await h.client.send('sessions.mint', { body: { persona: 'ava' } })).body;
    expect(q.status).toBe('queued');
    const claims = await box().connect(a.session_token);
    expect(claims.sub).toBe(a.session_id);
    expect(await statusOf(a.session_id)).toBe('active');
    await box().disconnect(a.session_id);
    expect(await statusOf(a.session_id)).toBe('ended');
    const s = await h.client.call('sessions.queue.status', { params: { ticket: q.queue_ticket } });
    expect(s.body.state).toBe('claimable');
    const c = (
      await h.client.call('sessions.mint', {
        body: { persona: 'ava', queue_ticket: q.queue_ticket },
      })
    ).body;
    await h.client.call('sessions.release', { params: { sessionId: b.session_id }, body: {} });
    await h.client.call('sessions.release', { params: { sessionId: c.session_id }, body: {} });
  });

  it('a token for another box is refused by the box', async () => {
    const other = await addBox(h.emu.ctx, { seats: 0 });
    const a = await mint();
    await expect(other.verify(a.session_token)).rejects.toThrow();
    await removeBox(h.emu.ctx, other.id);
    await h.client.call('sessions.release', { params: { sessionId: a.session_id }, body: {} });
  });

  it('the idle reaper frees a seat never connected; a heartbeat holds it', async () => {
    const a = await mint();
    const b = await mint();
    clock.advance(50_000);
    await h.client.call('sessions.heartbeat', {
      params: { sessionId: b.session_id },
      body: { seat_token: b.seat_token },
    });
    clock.advance(10_000);
    expect(await statusOf(a.session_id)).toBe('ended');
    expect(await statusOf(b.session_id)).toBe('pending');
    clock.advance(60_000);
    expect(await statusOf(b.session_id)).toBe('ended');
  });

  it('the session cap ends a live session and frees its seat', async () => {
    const a = await mint({ session_cap_seconds: 60 });
    await box().connect(a.session_token);
    clock.advance(59_000);
    expect(await statusOf(a.session_id)).toBe('active');
    clock.advance(1_000);
    expect(await statusOf(a.session_id)).toBe('ended');
    const boxes = await (await h.op('/_emulator/boxes')).json();
    expect(boxes.data[0].held).toBe(0);
  });
});
