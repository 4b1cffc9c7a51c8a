/**
 * The ranges of the emulator's start options (issue 7 item 4), shared by `avatar emulator
 * start` (each flag checked before anything starts, usage error naming the flag) and
 * `startEmulator()` (checked before the data dir, socket or fleet exist). Where the control
 * plane enforces a limit the range is that limit (seats per box: the internal box API's
 * registration, src/emulator/sessions/box-api.ts; session caps: spec 8); the others are ours
 * (docs/fidelity.md, "CLI and emulator process").
 */
import { z } from 'zod';
import { Limits } from '../contract/limits.js';

/** Seats a box may register with (the box API's `seats` field: 0 to 10,000). */
export const MAX_SEATS_PER_BOX = 10_000;
/** The longest timer Node can set (2^31-1 ms, about 24.8 days); a longer one would fire at once. */
const TIMER_MAX_S = Math.floor((2 ** 31 - 1) / 1000);

/** Plans of an organisation (spec 8's rate-limit table); `orgPlan` takes one of them. */
export const orgPlans = ['free', 'pro', 'enterprise'] as const;
export type OrgPlan = (typeof orgPlans)[number];

/** Inclusive integer ranges, by option name. */
export const optionRanges: Record<string, readonly [number, number]> = {
  port: [0, 65_535],
  boxes: [0, 64],
  seats: [0, MAX_SEATS_PER_BOX],
  tokenTtlS: [1, TIMER_MAX_S],
  claimWindowS: [1, TIMER_MAX_S],
  waiterIdleS: [1, TIMER_MAX_S],
  notifyIdleS: [1, TIMER_MAX_S],
  queueRetryAfterS: [1, 3_600],
  queueMaxWaiters: [1, 1_000_000],
  pendingIdleS: [1, TIMER_MAX_S],
  sessionCapS: [Limits.sessionCapMinSeconds, Limits.sessionCapMaxSeconds],
  mintRatePerMinute: [0, 1_000_000],
  demoQuotaMinutes: [0, 1_440],
  positionWebhookIntervalS: [1, TIMER_MAX_S],
};

const int = (lo: number, hi: number) => z.number().int().min(lo).max(hi);

const boxShape = {
  protocols: z
    .array(z.union([z.literal(1), z.literal(2)]))
    .min(1)
    .optional(),
  customAvatars: z.boolean().optional(),
  verified: z.boolean().optional(),
  seats: int(0, MAX_SEATS_PER_BOX).optional(),
  maxCapSeconds: int(1, Limits.sessionCapMaxSeconds).optional(),
};
/** The CLI's check: a key it does not know is a typo (`--box-capabilities '[{"protocol":[1]}]'`). */
export const BoxCapabilitiesSchema = z.array(z.strictObject(boxShape)).max(64);
/** startEmulator()'s check: the known keys in range; capabilities a later part adds pass through. */
const BoxCapabilitiesLoose = z.array(z.looseObject(boxShape)).max(64);

/** Per plan; a field left out keeps that plan's default (session-options.ts merges per field). */
export const PlanLimitsSchema = z.record(
  z.string().min(1),
  z.strictObject({
    concurrency: int(0, 1_000_000).optional(),
    maxCapSeconds: int(Limits.sessionCapMinSeconds, Limits.sessionCapMaxSeconds).optional(),
  }),
);

/** `seats must be an integer from 0 to 10000 (got 20000)`, or null when in range. */
export function rangeProblem(option: string, value: unknown, name = option): string | null {
  const r = optionRanges[option];
  if (!r || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < r[0] || value > r[1]) {
    return `${name} must be an integer from ${r[0]} to ${r[1]} (got ${String(value)})`;
  }
  return null;
}

/** The first zod issue as `path: message`. */
export function schemaProblem(schema: z.ZodType, value: unknown, name: string): string | null {
  const r = schema.safeParse(value);
  if (r.success) return null;
  const i = r.error.issues[0]!;
  return `${name}: ${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`;
}

/** `--allowed-hosts`: host names (no scheme, no port), `.example.com` for its subdomains, or `*`. */
const AllowedHostsSchema = z
  .array(
    z
      .string()
      .regex(
        /^(\*|\.?[A-Za-z0-9_.-]+|\[[0-9A-Fa-f:.]+\])$/,
        'a host name without scheme or port, .example.com for subdomains, or *',
      ),
  )
  .max(100);
export const allowedHostsProblem = (v: unknown) =>
  schemaProblem(AllowedHostsSchema, v, 'allowedHosts');
/** A given operator token: 16 to 200 visible characters (it travels in a header). */
const OperatorTokenSchema = z
  .string()
  .regex(/^[\x21-\x7e]{16,200}$/, '16 to 200 visible ASCII characters');

/** Every problem of these options, by option name (empty when they can start). */
export function optionProblems(options: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(optionRanges)) {
    const p = rangeProblem(k, options[k]);
    if (p) out.push(p);
  }
  if (options.boxCapabilities !== undefined) {
    const p = schemaProblem(BoxCapabilitiesLoose, options.boxCapabilities, 'boxCapabilities');
    if (p) out.push(p);
  }
  if (options.planLimits !== undefined) {
    const p = schemaProblem(PlanLimitsSchema, options.planLimits, 'planLimits');
    if (p) out.push(p);
  }
  if (options.allowedHosts !== undefined) {
    const p = allowedHostsProblem(options.allowedHosts);
    if (p) out.push(p);
  }
  if (options.operatorToken !== undefined) {
    const p = schemaProblem(OperatorTokenSchema, options.operatorToken, 'operatorToken');
    if (p) out.push(p);
  }
  if (
    options.orgPlan !== undefined &&
    !(orgPlans as readonly unknown[]).includes(options.orgPlan)
  ) {
    out.push(`orgPlan must be one of ${orgPlans.join(', ')} (got ${String(options.orgPlan)})`);
  }
  return out;
}
