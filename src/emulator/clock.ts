/**
 * Injected time (ARCHITECTURE property 3): the Clock interface and the real clock are the
 * contract's (src/contract/clock.ts, shared with the edge, models and media); the clocks a
 * test or an operator drives are here.
 */
import { systemClock, type Clock, type TimerHandle } from '../contract/clock.js';

export { systemClock, unixSeconds, type Clock, type TimerHandle } from '../contract/clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** A clock that only moves when told to; timers fire in order as time is advanced. */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const p: Pending = {
      at: this.current + Math.max(0, ms),
      seq: this.seq++,
      fn,
      cancelled: false,
    };
    this.pending.push(p);
    return { cancel: () => (p.cancelled = true) };
  }

  /** Move time forward by `ms`, firing every timer that falls due, in time order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      this.pending = this.pending.filter((p) => !p.cancelled);
      const next = this.pending
        .filter((p) => p.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.current = next.at;
      this.pending.splice(this.pending.indexOf(next), 1);
      next.fn();
    }
    this.current = target;
  }

  /** Timers still waiting (for tests that check nothing is left behind). */
  get pendingTimers(): number {
    return this.pending.filter((p) => !p.cancelled).length;
  }
}

interface DrivenTimer {
  at: number;
  seq: number;
  fn: () => void;
  handle: TimerHandle | null;
}

/**
 * The emulator's default clock (issue 18 item 4): real time, which a test can freeze,
 * advance and resume at run time (`/_emulator/clock/*`, `avatar emulator clock`). Advancing
 * fires every timer that falls due, in time order (token expiry, claim windows, idle
 * reapers, session caps, retention sweeps, rate-limit windows), as ManualClock does; while
 * running, timers are real timers set for what is left of them.
 */
export class DrivableClock implements Clock {
  /** Added to real time while running. */
  private offset = 0;
  private frozenAt: number | null = null;
  private seq = 0;
  private readonly timers = new Set<DrivenTimer>();

  constructor(private readonly real: Clock = systemClock) {}

  now(): number {
    return this.frozenAt ?? this.real.now() + this.offset;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t: DrivenTimer = { at: this.now() + Math.max(0, ms), seq: this.seq++, fn, handle: null };
    this.timers.add(t);
    this.arm(t);
    return {
      cancel: () => {
        t.handle?.cancel();
        this.timers.delete(t);
      },
    };
  }

  /** Stop time: now() stays put and no timer fires until advance() or resume(). */
  freeze(): void {
    if (this.frozenAt !== null) return;
    this.frozenAt = this.now();
    for (const t of this.timers) this.arm(t);
  }

  /** Let time run again from where it stands (not from the real time: nothing jumps). */
  resume(): void {
    if (this.frozenAt === null) return;
    this.offset = this.frozenAt - this.real.now();
    this.frozenAt = null;
    for (const t of this.timers) this.arm(t);
  }

  /** Move time forward by `ms`, firing every timer that falls due, in time order. */
  advance(ms: number): void {
    const target = this.now() + Math.max(0, ms);
    for (;;) {
      let next: DrivenTimer | undefined;
      for (const t of this.timers) {
        if (t.at <= target && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq)))
          next = t;
      }
      if (!next) break;
      this.moveTo(Math.max(next.at, this.now()));
      this.timers.delete(next);
      next.handle?.cancel();
      next.fn();
    }
    this.moveTo(Math.max(target, this.now()));
    for (const t of this.timers) this.arm(t);
  }

  private moveTo(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt = ms;
    else this.offset = ms - this.real.now();
  }

  private arm(t: DrivenTimer): void {
    t.handle?.cancel();
    t.handle = null;
    if (this.frozenAt !== null) return;
    t.handle = this.real.setTimeout(() => {
      if (this.timers.delete(t)) t.fn();
    }, t.at - this.now());
  }
}
