import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 19 item 4: a mint that never connects. Its seat frees when the idle reaper ends it
 * (`pendingIdleS` without a heartbeat), so the next waiter's ETA counts down to that, not
 * to a measured turnover that has already run out ("about 1 s" for a whole minute).
 */
const clock = new ManualClock(Date.now());
const h = useEmulator({ seats: 1, mintRatePerMinute: 0, pendingIdleS: 60, clock });

const mint = async () =>
  (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body as Record<string, any>;

describe('ETA behind a session that never connects', () => {
  it('counts down to the idle reaper, not to a turnover already past', async () => {
    // A quick turnover sample: a seat held for 2 s then released (the box was full).
    const quick = await mint();
    clock.advance(2000);
    await h.client.call('sessions.release', { params: { sessionId: quick.session_id }, body: {} });

    const pending = await mint(); // never connects: reaped 60 s after the mint
    expect(pending.status).toBe('ready');
    clock.advance(10_000);
    const queued = await mint();
    expect(queued.status).toBe('queued');
    // 50 s left before the reaper frees the seat
    expect(queued.eta_seconds).toBeGreaterThanOrEqual(45);
    expect(queued.eta_seconds).toBeLessThanOrEqual(50);
    clock.advance(30_000);
    const again = (
      await h.client.call('sessions.mint', {
        body: { persona: 'ava', queue_ticket: queued.queue_ticket },
      })
    ).body as Record<string, any>;
    expect(again.eta_seconds).toBeGreaterThanOrEqual(15);
    expect(again.eta_seconds).toBeLessThanOrEqual(20);
    // the reaper ends it on time, and the waiter gets the seat
    clock.advance(20_000);
    const seated = (
      await h.client.call('sessions.mint', {
        body: { persona: 'ava', queue_ticket: queued.queue_ticket },
      })
    ).body as Record<string, any>;
    expect(seated.status).toBe('ready');
  });
});
