/**
 * The one rate limiter: a sliding window per key (a log of admission times), at most
 * `limit` admissions in any `windowMs`. The mint guard (spec 7, per key) and the inference
 * limits (spec 8, per organisation and class) both count with it. Time from the injected clock.
 */
import type { Clock } from '../clock.js';

export type Admission = { ok: true; at: number } | { ok: false; retryAfterS: number };

export class SlidingWindow {
  private readonly logs = new Map<string, number[]>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  /** Admit one event for `key`, or say in whole seconds (at least 1) when the oldest leaves the window. */
  take(key: string, limit: number): Admission {
    const now = this.clock.now();
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = []));
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

  /** Give back the admission made at `at` for `key` (a request refused before it did any work). */
  refund(key: string, at: number): void {
    const log = this.logs.get(key);
    const i = log ? log.lastIndexOf(at) : -1;
    if (i >= 0) log!.splice(i, 1);
  }
}
