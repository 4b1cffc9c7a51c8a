import type { Clock, TimerHandle } from '../clock.js';

interface Entry<K> {
  at: number;
  key: K;
}

/**
 * Many keyed deadlines on one clock timer (a min-heap, lazily cleaned). With thousands of
 * waiters, one timer per ticket would swamp the clock; here arming is O(log n) and a
 * deadline that moved is simply re-armed when it falls due: `due(key)` returns the key's
 * next deadline (or null when it is done), so a liveness touch costs nothing.
 */
export class Deadlines<K> {
  private heap: Entry<K>[] = [];
  private armed = new Map<K, number>();
  private timer: TimerHandle | null = null;
  private timerAt = Infinity;
  private firing = false;

  constructor(
    private readonly clock: Clock,
    private readonly due: (key: K, now: number) => number | null,
  ) {}

  arm(key: K, at: number): void {
    if (this.armed.get(key) === at) return;
    this.armed.set(key, at);
    this.push({ at, key });
    if (!this.firing && at < this.timerAt) this.schedule();
  }

  disarm(key: K): void {
    this.armed.delete(key);
  }

  get size(): number {
    return this.armed.size;
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = null;
    this.timerAt = Infinity;
    this.armed.clear();
    this.heap = [];
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Infinity;
    this.firing = true;
    try {
      const now = this.clock.now();
      while (this.heap.length > 0 && this.heap[0]!.at <= now) {
        const e = this.pop()!;
        if (this.armed.get(e.key) !== e.at) continue;
        this.armed.delete(e.key);
        const next = this.due(e.key, now);
        if (next !== null && !this.armed.has(e.key)) this.arm(e.key, Math.max(next, now + 1));
      }
    } finally {
      this.firing = false;
    }
    this.schedule();
  }

  private schedule(): void {
    while (this.heap.length > 0 && this.armed.get(this.heap[0]!.key) !== this.heap[0]!.at)
      this.pop();
    const top = this.heap[0];
    if (!top) {
      this.timer?.cancel();
      this.timer = null;
      this.timerAt = Infinity;
      return;
    }
    if (top.at === this.timerAt && this.timer) return;
    this.timer?.cancel();
    this.timerAt = top.at;
    this.timer = this.clock.setTimeout(() => this.fire(), top.at - this.clock.now());
  }

  private push(e: Entry<K>): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.at <= h[i]!.at) break;
      [h[p], h[i]] = [h[i]!, h[p]!];
      i = p;
    }
  }

  private pop(): Entry<K> | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]!.at < h[m]!.at) m = l;
        if (r < h.length && h[r]!.at < h[m]!.at) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return top;
  }
}
