import type { Clock } from './clock.js';
import type { IdSource } from './ids.js';
import type { OrgPlan } from './option-limits.js';
import { sessionDefaults, type BoxCapabilities, type PlanLimit } from './session-options.js';

/**
 * Options of `avatar emulator start` and of `startEmulator()`. Everything observable is
 * configurable (ARCHITECTURE property 2); later issues add their timers and limits here.
 */
export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. */
  port: number;
  host: string;
  /** Data directory (SQLite file + blobs); ignored when `inMemory`. */
  dataDir: string;
  inMemory: boolean;
  clock?: Clock;
  ids?: IdSource;
  /** Accept plain-http/loopback hook and webhook URLs (off by default; printed at start). */
  allowInsecureUrls: boolean;
  /**
   * Host names served besides localhost, 127.0.0.1, [::1] and the bound address, by the
   * control plane and every in-process box (`--allowed-hosts a,b`; `.example.com` takes its
   * subdomains, `*` any Host). Anything else gets 421 (docs/security.md).
   */
  allowedHosts?: string[];
  /** The operator token of this start (`op_<hex>`); when not given, the data dir's (kept across restarts) or, in memory, random per start (docs/security.md). */
  operatorToken?: string;
  /** Log each request to stderr. */
  verbose: boolean;
  /** How long stop() lets requests in flight finish before closing their connections (ms, default 5000). */
  shutdownGraceMs?: number;
  /** Fleet, queue, session and webhook options (issue 4); documented in src/emulator/session-options.ts. */
  boxes?: number;
  seats?: number;
  boxCapabilities?: BoxCapabilities[];
  tokenTtlS?: number;
  claimWindowS?: number;
  waiterIdleS?: number;
  notifyIdleS?: number;
  queueRetryAfterS?: number;
  queueMaxWaiters?: number;
  pendingIdleS?: number;
  sessionCapS?: number;
  /** Per plan; a field left out keeps that plan's default. */
  planLimits?: Record<string, Partial<PlanLimit>>;
  mintRatePerMinute?: number;
  demoQuotaMinutes?: number;
  positionWebhookIntervalS?: number;
  webhookRetryDelaysMs?: number[];
  webhookTimeoutMs?: number;
  /** Plan of the bootstrap organisation (inference rate limits, spec 8); default enterprise. */
  orgPlan?: OrgPlan;
  /** A seed file (YAML or JSON, schemas/seed.schema.json) applied to a fresh store. */
  seed?: string;
  /**
   * Conversation script files (YAML or JSON, schemas/script.schema.json) loaded at start,
   * after the seed's (`--script FILE`, repeatable; docs/testing.md "Conversation scripts").
   */
  scripts?: string[];
  /** HTTP faults from the start (src/emulator/operator/faults.ts; docs/testing.md "Faults"). */
  faults?: unknown[];
  /** Extra options set by later resources (timers, fleet shape); see each module. */
  [key: string]: unknown;
}

export const defaultOptions: EmulatorOptions = {
  port: 4780,
  host: '127.0.0.1',
  dataDir: '.avatar-emulator',
  inMemory: false,
  allowInsecureUrls: false,
  verbose: false,
  ...sessionDefaults,
};
