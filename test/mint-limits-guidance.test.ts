import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * A mint refused by a limit says when to come back and what to do (spec 7; issue 7 item 5):
 * every 429 carries `retry_after` in the body and `Retry-After`, and the message names the
 * way out (release a session, the idle reaper, the seconds to wait).
 */
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({
  seats: 4,
  clock,
  mintRatePerMinute: 3,
  pendingIdleS: 60,
  planLimits: { free: { concurrency: 1, maxCapSeconds: 3600 } },
});

describe('429 bodies carry retry_after and what to do', () => {
  it('concurrency_limit names the live count, the ceiling, release and the idle reaper', async () => {
    const first = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(first.status).toBe(201);
    const r = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('15');
    expect(r.body).toMatchObject({
      error: 'concurrency_limit',
      limit: 1,
      active: 1,
      retry_after: 15,
    });
    expect(r.body.message).toMatch(/1 session is live and the free plan allows 1/);
    expect(r.body.message).toMatch(/release one \(POST \/api\/v1\/sessions\/\{id\}\/release\)/);
    expect(r.body.message).toMatch(/idle reaper \(60 s without a heartbeat/);
    await h.client.send('sessions.release', {
      params: { sessionId: first.body.session_id },
      body: { seat_token: first.body.seat_token },
    });
  });

  it('rate_limited says how many seconds to wait, in the body and the header', async () => {
    clock.advance(61_000);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      clock.advance(10_000);
      last = await h.client.send('sessions.mint', { body: { persona: 'ava', concurrency_cap: 1 } });
      statuses.push(last.status);
      if (last.status === 201) {
        await h.client.send('sessions.release', {
          params: { sessionId: last.body.session_id },
          body: { seat_token: last.body.seat_token },
        });
      }
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    // The oldest of the three mints was 30 s ago: its minute ends in 30 s.
    expect(last!.body).toMatchObject({ error: 'rate_limited', retry_after: 30 });
    expect(last!.headers['retry-after']).toBe('30');
    expect(last!.body.message).toMatch(/retry in 30 s/);
  });
});
