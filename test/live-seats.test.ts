/**
 * The live seats and their reaper, on their own (issue 19 item 3: split from the session
 * runtime): a pending session ends idle without heartbeats, a connected one at its cap, and
 * the earliest sure end is what the queue's ETA never runs past.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { LiveSeats, type ExpiryReason } from '../src/emulator/sessions/live-seats.js';

function seats(pendingIdleS = 60) {
  const clock = new ManualClock();
  const ended: [string, ExpiryReason][] = [];
  const live = new LiveSeats(clock, pendingIdleS, (id, reason) => {
    ended.push([id, reason]);
    live.end(id);
  });
  return { clock, live, ended };
}

describe('live seats', () => {
  it('a pending session ends idle after pendingIdleS without a heartbeat; a heartbeat moves it on', () => {
    const { clock, live, ended } = seats(60);
    live.seat('s1', 'box', 'ws', 300);
    live.seat('s2', 'box', 'ws', 300);
    expect(live.count('ws')).toBe(2);
    clock.advance(30_000);
    live.beat('s2');
    clock.advance(30_000);
    expect(ended).toEqual([['s1', 'idle']]);
    expect(live.has('s1')).toBe(false);
    expect(live.count('ws')).toBe(1);
    clock.advance(30_000);
    expect(ended).toEqual([
      ['s1', 'idle'],
      ['s2', 'idle'],
    ]);
    expect(live.count('ws')).toBe(0);
  });

  it('a connected session ends at its cap, not idle; connect counts once', () => {
    const { clock, live, ended } = seats(60);
    live.seat('s1', 'box', 'ws', 100);
    clock.advance(10_000);
    expect(live.connect('s1')).toEqual({ live: true, first: true });
    expect(live.connect('s1')).toEqual({ live: true, first: false });
    clock.advance(99_999);
    expect(ended).toEqual([]);
    clock.advance(1);
    expect(ended).toEqual([['s1', 'cap']]);
    expect(live.connect('s1')).toEqual({ live: false, first: false });
  });

  it('earliestEnd is the first reaper or cap deadline among the sessions named; an ended one stops counting', () => {
    const { clock, live } = seats(60);
    const t0 = clock.now();
    live.seat('a', 'box', 'ws', 300);
    live.seat('b', 'box', 'ws', 20);
    live.connect('b');
    expect(live.earliestEnd(['a', 'b'])).toBe(t0 + 20_000);
    expect(live.end('b')).toBe('box');
    expect(live.end('b')).toBeNull();
    expect(live.earliestEnd(['a', 'b'])).toBe(t0 + 60_000);
    expect(live.earliestEnd(['gone'])).toBeNull();
  });
});
