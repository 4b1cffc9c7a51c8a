import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { Line } from '../src/emulator/queue/line.js';
import { SessionQueue, type DropReason, type Ticket } from '../src/emulator/queue/queue.js';

/** The queue state machine alone (spec 3 "Queue ticket"), driven by a ManualClock. */
function setup() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const events: string[] = [];
  const released: string[] = [];
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
      reservationReleased: (boxId, skip) => {
        released.push(boxId);
        q.offer(box, skip);
      },
      claimable: (t) => events.push(`claimable ${t.id}`),
      dropped: (t: Ticket, r: DropReason) => events.push(`dropped ${t.id} ${r}`),
      position: (t, p) => events.push(`position ${t.id} ${p}`),
    },
  );
  const admit = (id: string, opts: { notify?: boolean; watch?: boolean } = {}) =>
    q.admit({
      id,
      scope: 'ws',
      workspaceId: 'ws',
      needs: { protocols: [1], custom: false },
      notify: opts.notify ? { url: 'https://x.test/hook' } : null,
      wantsPosition: opts.watch ?? false,
    });
  return { clock, q, events, released, box, admit };
}

describe('queue state machine (spec 3)', () => {
  it('admits at the back with 1-based positions and the advisory retry_after', () => {
    const { q, admit } = setup();
    const a = admit('a');
    const b = admit('b');
    expect(q.view(a)).toMatchObject({ state: 'waiting', position: 1, retry_after: 3 });
    expect(q.view(b)).toMatchObject({ state: 'waiting', position: 2 });
  });

  it('a freed seat makes the first waiter claimable with a claim deadline; positions behind move up', () => {
    const { clock, q, events, box, admit } = setup();
    const a = admit('a');
    const b = admit('b');
    expect(q.offer(box)).toBe(a);
    const v = q.view(a);
    expect(v).toMatchObject({
      state: 'claimable',
      retry_after: 0,
      claim_deadline: Math.floor(clock.now() / 1000) + 45,
    });
    expect(v.eta_seconds).toBeGreaterThan(0);
    expect(q.view(b).position).toBe(1);
    expect(events).toEqual(['claimable a']);
  });

  it('first lapse goes back to waiting and hands the seat to the next waiter; the second lapse drops (lapsed)', () => {
    const { clock, q, events, box, admit } = setup();
    const a = admit('a');
    const b = admit('b');
    q.offer(box);
    // keep both alive while the windows run
    for (let s = 0; s < 45; s += 5) {
      clock.advance(5000);
      q.touch(a);
      q.touch(b);
    }
    expect(q.view(a)).toMatchObject({ state: 'waiting', position: 1 });
    expect(q.view(b).state).toBe('claimable');
    expect(q.claim(b)).toBe('b1');
    q.offer(box);
    expect(q.view(a).state).toBe('claimable');
    for (let s = 0; s < 45; s += 5) {
      clock.advance(5000);
      q.touch(a);
    }
    expect(q.view(q.get('a')).state).toBe('expired');
    expect(events).toEqual(['claimable a', 'claimable b', 'claimable a', 'dropped a lapsed']);
  });

  it('expires an untouched waiter after 12 s, or 300 s with a notify block', () => {
    const { clock, q, events, admit } = setup();
    admit('plain');
    admit('notified', { notify: true });
    clock.advance(11_999);
    expect(q.get('plain')).toBeDefined();
    clock.advance(1);
    expect(q.get('plain')).toBeUndefined();
    expect(events).toEqual(['dropped plain idle']);
    clock.advance(300_000 - 12_000 - 1);
    expect(q.get('notified')).toBeDefined();
    clock.advance(1);
    expect(events).toEqual(['dropped plain idle', 'dropped notified idle']);
  });

  it('a touch keeps a waiter alive', () => {
    const { clock, q, admit } = setup();
    const a = admit('a');
    for (let i = 0; i < 10; i++) {
      clock.advance(10_000);
      q.touch(a);
    }
    expect(q.view(a).state).toBe('waiting');
  });

  it('cancel expires without an event and passes the reserved seat on', () => {
    const { q, events, released, box, admit } = setup();
    admit('a');
    const b = admit('b');
    q.offer(box);
    q.cancel('a');
    expect(q.view(q.get('a')).state).toBe('expired');
    expect(released).toEqual(['b1']);
    expect(q.view(b).state).toBe('claimable');
    expect(events).toEqual(['claimable a', 'claimable b']);
  });

  it('drain expires every ticket with reason drained', () => {
    const { q, events, box, admit } = setup();
    admit('a');
    admit('b');
    q.offer(box);
    expect(q.drain()).toBe(2);
    expect(q.size).toBe(0);
    expect(events.filter((e) => e.startsWith('dropped'))).toEqual([
      'dropped a drained',
      'dropped b drained',
    ]);
  });

  it('queue.position at most once per 30 s per ticket, only when the value moved', () => {
    const { clock, q, events, admit } = setup();
    const keep: Ticket[] = [];
    for (const id of ['a', 'b', 'c', 'd']) keep.push(admit(id));
    const w = admit('w', { watch: true, notify: true });
    const touchAll = () => [...keep, w].forEach((t) => q.get(t.id) && q.touch(t));
    q.cancel('a');
    clock.advance(0);
    expect(events).toEqual(['position w 4']);
    q.cancel('b');
    clock.advance(10_000);
    touchAll();
    expect(events).toEqual(['position w 4']);
    clock.advance(10_000);
    touchAll();
    clock.advance(10_000);
    expect(events).toEqual(['position w 4', 'position w 3']);
    touchAll();
    for (let i = 0; i < 4; i++) {
      clock.advance(10_000);
      touchAll();
    }
    expect(events.length).toBe(2);
  });
});

describe('line positions', () => {
  it('stay right across removals and compaction', () => {
    const line = new Line<{ seq: number; id: number }>(4);
    const items = Array.from({ length: 3000 }, (_, id) => ({ seq: 0, id }));
    for (const it of items) line.admit(it);
    for (let i = 0; i < 3000; i += 2) line.remove(items[i]!);
    for (let i = 0; i < 500; i++) line.admit({ seq: 0, id: 3000 + i });
    expect(line.rank(items[1]!)).toBe(1);
    expect(line.rank(items[2999]!)).toBe(1500);
    line.setCounted(items[1]!, false);
    expect(line.rank(items[3]!)).toBe(1);
    expect(line.countedSize).toBe(1999);
  });
});
