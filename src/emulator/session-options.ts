import { Limits } from '../contract/limits.js';
import { own } from '../contract/own.js';

/** What one box of the fleet can do (spec 7: protocol, custom-avatar support and verification). */
export interface BoxCapabilities {
  /** Edge wire protocols spoken (spec 9); default [1, 2]. */
  protocols?: number[];
  /** Renders custom (tenant) avatars; default true. */
  customAvatars?: boolean;
  /** Verified for custom avatars; default true. A box that supports but is not verified makes mints 503. */
  verified?: boolean;
  /** Seats of this box; default the fleet's `seats`. */
  seats?: number;
  /** Longest session this box seats (spec 4.5: the granted cap is lowered "by the seat"); default none. */
  maxCapSeconds?: number;
}

/** Per-plan limits (spec 7/8 name them; their values are ours: docs/fidelity.md). */
export interface PlanLimit {
  /** Concurrent live sessions per workspace (429 concurrency_limit). */
  concurrency: number;
  /** Longest session the plan grants. */
  maxCapSeconds: number;
}

/**
 * Fleet, queue, session and webhook options of `startEmulator()` and `avatar emulator
 * start` (ARCHITECTURE property 2: every timer and limit is configurable, so tests can run
 * the queue state machine in seconds or on a ManualClock).
 */
export interface SessionOptions {
  /** Boxes started in-process; 0 starts a control plane with no box (mint answers 503 fleet_busy). */
  boxes: number;
  /** Seats per box. */
  seats: number;
  /** Capabilities per box, by index (missing entries: defaults). */
  boxCapabilities: BoxCapabilities[];
  /** Session token lifetime (spec 8: about 60 s). */
  tokenTtlS: number;
  /** Claim window of a claimable ticket (spec 3: 45 s). */
  claimWindowS: number;
  /** Waiter liveness without a notify block (spec 8: about 12 s). */
  waiterIdleS: number;
  /** Waiter liveness with a notify block (spec 8: QUEUE_NOTIFY_IDLE_S, 300 s). */
  notifyIdleS: number;
  /** Advisory `retry_after` of a waiting ticket (spec 8: 3 s). */
  queueRetryAfterS: number;
  /** Line length past which a mint answers 503 fleet_busy ("past the wait horizon"). */
  queueMaxWaiters: number;
  /** Idle reaper: a minted session never connected frees its seat after this long without a heartbeat. */
  pendingIdleS: number;
  /** Default session length (spec 8: about 300 s). */
  sessionCapS: number;
  /** Plan limits by workspace plan (unknown plans use `free`). */
  planLimits: Record<string, PlanLimit>;
  /** Per-key (per-device) mint rate guard: fresh mints per rolling minute; 0 disables it. */
  mintRatePerMinute: number;
  /** Cumulative session minutes per UTC day of a `demo` workspace (402 when used up). */
  demoQuotaMinutes: number;
  /** queue.position at most once per this many seconds per ticket (spec 6.3: 30 s). */
  positionWebhookIntervalS: number;
  /** Delivery attempts of a queue webhook, as offsets from the event (spec 6.3: at once, 2 s, 5 s). */
  webhookRetryDelaysMs: number[];
  /** Timeout of one webhook delivery attempt. */
  webhookTimeoutMs: number;
}

export const sessionDefaults: SessionOptions = {
  boxes: 1,
  seats: 4,
  boxCapabilities: [],
  tokenTtlS: Limits.sessionTokenTtlSeconds,
  claimWindowS: Limits.claimWindowSeconds,
  waiterIdleS: Limits.waiterIdleSeconds,
  notifyIdleS: Limits.notifyIdleSeconds,
  queueRetryAfterS: Limits.queueRetryAfterSeconds,
  queueMaxWaiters: 20_000,
  pendingIdleS: 60,
  sessionCapS: Limits.sessionCapDefaultSeconds,
  planLimits: {
    // Above the default fleet (1 box x 4 seats): a single developer's 5th mint waits in
    // line (202) instead of hitting the plan ceiling (issue 7 item 5; docs/fidelity.md).
    free: { concurrency: 8, maxCapSeconds: 3600 },
    pro: { concurrency: 20, maxCapSeconds: 3600 },
    enterprise: { concurrency: 200, maxCapSeconds: 3600 },
    demo: { concurrency: 1, maxCapSeconds: 300 },
  },
  mintRatePerMinute: 120,
  demoQuotaMinutes: 30,
  positionWebhookIntervalS: Limits.queuePositionWebhookIntervalSeconds,
  webhookRetryDelaysMs: [0, 2000, 5000],
  webhookTimeoutMs: 5000,
};

/** The session options in effect: the emulator options over the defaults. */
export function sessionOptions(options: Record<string, unknown>): SessionOptions {
  const out = { ...sessionDefaults } as Record<string, unknown>;
  for (const key of Object.keys(sessionDefaults)) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  const o = out as unknown as SessionOptions;
  // Per field: `{"free":{"concurrency":1}}` keeps the free plan's maxCapSeconds (a new
  // plan name starts from the free plan's limits).
  // fromEntries defines own keys: a plan named `__proto__` is a plan, not the prototype.
  o.planLimits = Object.fromEntries([
    ...Object.entries(sessionDefaults.planLimits),
    ...Object.entries((options.planLimits ?? {}) as Record<string, Partial<PlanLimit>>).map(
      ([plan, given]) => [
        plan,
        {
          ...(own(sessionDefaults.planLimits, plan) ?? sessionDefaults.planLimits.free!),
          ...stripUndefined(given),
        },
      ],
    ),
  ]);
  return o;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function planLimit(o: SessionOptions, plan: string): PlanLimit {
  return own(o.planLimits, plan) ?? o.planLimits.free!;
}
