/**
 * The one rate limiter: a sliding window per key (a log of admission times), at most
 * `limit` admissions in any `windowMs`. The mint guard (spec 7, per key) and the inference
 * limits (spec 8, per organisation and class) both count with it. Time from the injected clock.
 */
import type { Clock } from '../clock.js';

export type Admission = { ok: true; at: number } | { ok: false; retryAfterS: number };

export class SlidingWindow {
  private readonly logs = new Map<string, number[]>();
  /** Keys held when the last sweep ended: the next sweep runs when there are twice as many, */
  private swept = 1024;
  /** or a window after this one. */
  private sweptAt = -Infinity;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  /** Admit one event for `key`, or say in whole seconds (at least 1) when the oldest leaves the window. */
  take(key: string, limit: number): Admission {
    const now = this.clock.now();
    let log = this.logs.get(key);
    if (!log) {
      if (this.logs.size >= this.swept || now - this.sweptAt >= this.windowMs) this.sweep(now);
      this.logs.set(key, (log = []));
    }
    let drop = 0;
    while (drop < log.length && log[drop]! <= now - this.windowMs) drop++;
    if (drop) log.splice(0, drop);
    if (log.length >= limit)
      return {
        ok: false,
        retryAfterS: Math.max(1, Math.ceil((log[0]! + this.windowMs - now) / 1000)),
      };
    log.push(now);
    return { ok: true, at: now };
  }

  /** Keys with a log (tests check a run of many keys leaves none behind once their window passed). */
  get keys(): number {
    return this.logs.size;
  }

  /**
   * Forget every key whose newest admission left the window (a key not seen again would
   * otherwise stay for the life of the process: issue 19, hostile-input memory). Amortised:
   * it runs when a new key comes and the key count has doubled, or a window has passed,
   * since the last sweep.
   */
  private sweep(now: number): void {
    for (const [k, log] of this.logs)
      if (log.length === 0 || log[log.length - 1]! <= now - this.windowMs) this.logs.delete(k);
    this.swept = Math.max(1024, this.logs.size * 2);
    this.sweptAt = now;
  }

  /** Give back the admission made at `at` for `key` (a request refused before it did any work). */
  refund(key: string, at: number): void {
    const log = this.logs.get(key);
    const i = log ? log.lastIndexOf(at) : -1;
    if (i >= 0) log!.splice(i, 1);
  }
}
