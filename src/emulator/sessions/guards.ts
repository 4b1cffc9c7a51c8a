/**
 * Mint guards of spec 7: the per-key/per-device mint rate guard (429 `rate_limited`), the
 * demo tier's cumulative minutes (402), and the plan's concurrent-session ceiling
 * (429 `concurrency_limit`, never a queue ticket). Their numbers are ours (docs/fidelity.md).
 */
import { ErrorCode } from '../../contract/errors.js';
import { Limits } from '../../contract/limits.js';
import type { Clock } from '../clock.js';
import { ApiError } from '../../server/api-error.js';
import { SlidingWindow } from '../http/sliding-window.js';
import { planLimit, type SessionOptions } from '../session-options.js';
import type { SessionStatements } from './store.js';

const DAY_S = 86_400;

/** Rolling one-minute window of fresh mints per key (device keys are one per device). */
export class MintRateGuard {
  private readonly window: SlidingWindow;

  constructor(
    clock: Clock,
    private readonly perMinute: () => number,
  ) {
    this.window = new SlidingWindow(clock);
  }

  check(keyId: string): void {
    const limit = this.perMinute();
    if (limit <= 0) return;
    const a = this.window.take(keyId, limit);
    if (!a.ok) {
      const retry = a.retryAfterS;
      throw new ApiError(429, ErrorCode.rateLimited, {
        message: `more than ${limit} mints per minute from this key; retry in ${retry} s (polls with a queue_ticket do not count)`,
        retryable: true,
        extra: { retry_after: retry },
        headers: { 'Retry-After': String(retry) },
      });
    }
  }
}

/** Seconds of quota left today for a demo workspace (Infinity for other plans). */
export function quotaLeft(
  st: SessionStatements,
  o: SessionOptions,
  plan: string,
  scope: string,
  nowS: number,
): {
  left: number;
  resetAt: number;
} {
  const since = nowS - (nowS % DAY_S);
  const resetAt = since + DAY_S;
  if (plan !== 'demo') return { left: Infinity, resetAt };
  const used = (st.usedSeconds.get({ now: nowS, scope, since }) as { s: number }).s;
  return { left: Math.max(0, o.demoQuotaMinutes * 60 - used), resetAt };
}

/** spec 7: 402 with `reset_at` and `retry_after` when the demo tier's minutes are used up. */
export function checkQuota(q: { left: number; resetAt: number }, nowS: number): void {
  if (q.left > 0) return;
  const retry = q.resetAt - nowS;
  throw new ApiError(402, ErrorCode.quotaExhausted, {
    message: `the demo tier minutes are used up for today; they come back at 00:00 UTC, in ${retry} s`,
    retryable: true,
    extra: { reset_at: q.resetAt, retry_after: retry },
    headers: { 'Retry-After': String(retry) },
  });
}

/**
 * spec 7: 429 `concurrency_limit` with `limit`, `active`, `retry_after`; `Retry-After: 15`.
 * The message says how a seat comes back: a release, or the idle reaper for a session
 * minted and never connected (issue 7 item 5).
 */
export function checkConcurrency(
  active: number,
  o: SessionOptions,
  plan: string,
  cap?: number,
): void {
  const limit = Math.min(planLimit(o, plan).concurrency, cap ?? Infinity);
  if (active < limit) return;
  const retry = Limits.concurrencyRetryAfterSeconds;
  throw new ApiError(429, ErrorCode.concurrencyLimit, {
    message:
      `${active} ${active === 1 ? 'session is' : 'sessions are'} live and ${cap !== undefined && cap < planLimit(o, plan).concurrency ? 'concurrency_cap' : `the ${plan} plan`} allows ${limit}; ` +
      `release one (POST /api/v1/sessions/{id}/release) or wait for the idle reaper (${o.pendingIdleS} s without a heartbeat ends a session never connected), then retry in ${retry} s`,
    retryable: true,
    extra: { limit, active, retry_after: retry },
    headers: { 'Retry-After': String(retry) },
  });
}

/** spec 4.5: the granted cap is the request (or default) lowered by plan, remaining quota and seat. */
export function grantCap(
  o: SessionOptions,
  plan: string,
  requested: number | null,
  quotaLeftS: number,
  seatMax: number | null,
): number {
  const want = requested ?? o.sessionCapS;
  return Math.max(
    1,
    Math.floor(Math.min(want, planLimit(o, plan).maxCapSeconds, quotaLeftS, seatMax ?? Infinity)),
  );
}
