/**
 * Injected time (ARCHITECTURE property 3). Domain code asks a Clock for `now()` and for
 * timers; production passes `systemClock`, tests pass a `ManualClock` and drive it.
 */
export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

export const unixSeconds = (clock: Clock): number => Math.floor(clock.now() / 1000);

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

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
    const p: Pending = { at: this.current + Math.max(0, ms), seq: this.seq++, fn, cancelled: false };
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
