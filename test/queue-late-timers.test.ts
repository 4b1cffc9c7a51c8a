import { describe, expect, it } from 'vitest';
import type { Clock, TimerHandle } from '../src/emulator/clock.js';
import { SessionQueue, type Ticket } from '../src/emulator/queue/queue.js';

/**
 * A real timer can fire late (a busy event loop). The queue must not rely on it: a ticket
 * read or claimed after its deadline is treated as past that deadline, whatever the timer did.
 * This clock moves when told and never fires its timers, the worst case of a late timer.
 */
class StuckClock implements Clock {
  constructor(public t = Date.UTC(2026, 0, 1)) {}
  now() {
    return this.t;
  }
  setTimeout(): TimerHandle {
    return { cancel() {} };
  }
}

function setup() {
  const clock = new StuckClock();
  const events: string[] = [];
  const box = { id: 'b1', fits: () => true };
  const q: SessionQueue = new SessionQueue(
    clock,
    {
      claimWindowS: 45,
      waiterIdleS: 12,
      notifyIdleS: 300,
      queueRetryAfterS: 3,
      positionWebhookIntervalS: 30,
      secondsPerPlace: () => 10,
    },
    {
      reservationReleased: (_boxId, skip) => void q.offer(box, skip),
      claimable: (t: Ticket) => events.push(`claimable ${t.id}`),
      dropped: (t: Ticket, r) => events.push(`dropped ${t.id} ${r}`),
      position: () => undefined,
    },
  );
  const admit = (id: string) =>
    q.admit({
      id,
      scope: 'ws',
      workspaceId: 'ws',
      needs: { protocols: [1], custom: false },
      notify: null,
      wantsPosition: false,
    });
  return { clock, q, events, box, admit };
}

describe('deadlines hold even when the timer is late', () => {
  it('a ticket read after its claim deadline has lapsed (not claimable), and the seat went on', () => {
    const { clock, q, events, box, admit } = setup();
    admit('a');
    admit('b');
    q.offer(box);
    expect(q.view(q.get('a')).state).toBe('claimable');
    for (let i = 0; i < 4; i++) {
      clock.t += 10_000;
      q.touch(q.get('a')!);
      q.touch(q.get('b')!);
    }
    clock.t += 5_001; // past the 45 s claim window, timers silent
    expect(q.view(q.get('a'))).toMatchObject({ state: 'waiting' });
    expect(q.view(q.get('b')).state).toBe('claimable');
    expect(events).toEqual(['claimable a', 'claimable b']);
  });

  it('a ticket read after its idle deadline is expired (dropped idle), not revived by the read', () => {
    const { clock, q, events, admit } = setup();
    admit('a');
    clock.t += 12_001;
    expect(q.get('a')).toBeUndefined();
    expect(q.view(q.get('a'))).toEqual({ state: 'expired', retry_after: 3 });
    expect(events).toEqual(['dropped a idle']);
  });
});
