import type { Clock } from '../../clock.js';
import { SlidingWindow } from '../../http/sliding-window.js';
import { InferenceError } from '../shared/errors.js';
import { own } from '../../../contract/own.js';

/** Spec 8: inference rate limits per organisation and plan, per minute. */
export interface PlanRate {
  api: number;
  jobs: number;
}

export const defaultPlanRates: Record<string, PlanRate> = {
  free: { api: 60, jobs: 10 },
  pro: { api: 600, jobs: 100 },
  enterprise: { api: 6_000, jobs: 1_000 },
};

export type RequestClass = 'api' | 'jobs';

/**
 * Spec 8: job submissions are POST or PUT to /compat-a/v1/*, /compat-b/*, /api/jobs, or a
 * workflow execution; everything else counts as an API request.
 */
export function classify(method: string, path: string): RequestClass {
  if (method !== 'POST' && method !== 'PUT') return 'api';
  if (path.startsWith('/compat-a/v1/') || path.startsWith('/compat-b/')) return 'jobs';
  if (path === '/api/jobs' || path === '/api/jobs/') return 'jobs';
  if (/^\/api\/workflows\/[^/]+\/execute\/?$/.test(path)) return 'jobs';
  return 'api';
}

/**
 * At most the plan's requests per class in any 60 s per organisation (a SlidingWindow);
 * Retry-After is the whole seconds until the oldest admission leaves the window.
 */
export class RateLimiter {
  private readonly window: SlidingWindow;

  constructor(
    clock: Clock,
    private readonly rates: Record<string, PlanRate> | false,
  ) {
    this.window = new SlidingWindow(clock);
  }

  /** Admit one request or throw 429 `rate_limit` with Retry-After; returns the admission's time. */
  admit(orgId: string, plan: string, cls: RequestClass): number {
    if (this.rates === false) return NaN;
    const rate = own(this.rates, plan) ?? this.rates.free ?? defaultPlanRates.free!;
    const limit = rate[cls];
    const a = this.window.take(`${orgId}\u0000${cls}`, limit);
    if (!a.ok) {
      const what = cls === 'jobs' ? 'job submissions' : 'API requests';
      throw new InferenceError(
        429,
        'rate_limit',
        `rate limit of ${limit} ${what} per minute reached for the ${plan} plan; retry in ${a.retryAfterS} s`,
        {
          headers: { 'Retry-After': String(a.retryAfterS) },
        },
      );
    }
    return a.at;
  }

  /**
   * Give back an admission made at `at` (issue 18 item 10): a job submission refused before
   * any model ran (bad body, unknown model) does not spend the caller's minute.
   */
  refund(orgId: string, cls: RequestClass, at: number): void {
    this.window.refund(`${orgId}\u0000${cls}`, at);
  }
}
