/**
 * The figures of `avatar load-test` (issue 18 item 8): percentiles of each timing and the
 * `--slo` rules checked against them. Pure: no clock, no I/O.
 */

/** Nearest-rank percentile (the smallest value with at least p% of the samples at or below it). */
export function percentile(xs: readonly number[], p: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export interface Summary {
  n: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

export function summarize(xs: readonly number[]): Summary {
  const r = (v: number | null) => (v === null ? null : Math.round(v));
  return {
    n: xs.length,
    p50: r(percentile(xs, 50)),
    p95: r(percentile(xs, 95)),
    p99: r(percentile(xs, 99)),
    max: r(percentile(xs, 100)),
  };
}

/** The timings a load test reports, each in ms (docs/testing.md). */
export const TIMINGS = [
  'mint',
  'queue_wait',
  'connect',
  'first_media',
  'turn',
  'chat_first_speech',
] as const;
export type TimingName = (typeof TIMINGS)[number];

/** The counts a load test reports. */
export const COUNTS = ['errors', 'late_fragments', 'unseated', 'turns'] as const;
export type CountName = (typeof COUNTS)[number];

export interface LoadFigures {
  timings: Record<TimingName, Summary>;
  counts: Record<CountName, number>;
  /** Errors by code (`rate_limited`, `edge_lost`, `turn_timeout`, ...). */
  errors: Record<string, number>;
}

/**
 * One `--slo` rule: `turn.p50<=900ms` (or `turn.p50=900ms`: `=` means "at most"),
 * `errors=0`, `errors.rate_limited=0`, `late_fragments<=5`, `turns>=100`.
 */
export interface SloRule {
  text: string;
  metric: string;
  op: '<=' | '>=';
  limit: number;
}

const STATS = new Set(['p50', 'p95', 'p99', 'max']);

/** Parse `--slo`: comma-separated rules; throws an Error naming the bad rule. */
export function parseSlo(spec: string): SloRule[] {
  const rules: SloRule[] = [];
  for (const raw of spec.split(',')) {
    const text = raw.trim();
    if (!text) continue;
    const m = /^([a-z_]+(?:\.[a-z0-9_:-]+)?)\s*(<=|>=|=)\s*([0-9]+(?:\.[0-9]+)?)\s*(ms|s)?$/.exec(
      text,
    );
    if (!m)
      throw new Error(
        `--slo ${text}: write METRIC=LIMIT, e.g. turn.p50=900ms, errors=0, turns>=10`,
      );
    const [, metric, op, num, unit] = m as unknown as [
      string,
      string,
      string,
      string,
      string | undefined,
    ];
    const [head, tail] = metric.split('.') as [string, string | undefined];
    if ((TIMINGS as readonly string[]).includes(head)) {
      if (!tail || !STATS.has(tail))
        throw new Error(
          `--slo ${text}: a timing takes .p50, .p95, .p99 or .max (e.g. ${head}.p95=2s)`,
        );
    } else if (head === 'errors') {
      // errors or errors.<code>
    } else if ((COUNTS as readonly string[]).includes(head)) {
      if (tail) throw new Error(`--slo ${text}: ${head} is a count: write ${head}=N`);
      if (unit) throw new Error(`--slo ${text}: ${head} is a count, not a time`);
    } else {
      throw new Error(
        `--slo ${text}: unknown metric ${head} (timings: ${TIMINGS.join(', ')}; counts: ${COUNTS.join(', ')}, errors.<code>)`,
      );
    }
    if (head === 'errors' && unit) throw new Error(`--slo ${text}: errors is a count, not a time`);
    const limit = Number(num) * (unit === 's' ? 1000 : 1);
    rules.push({ text, metric, op: op === '>=' ? '>=' : '<=', limit });
  }
  if (rules.length === 0)
    throw new Error('--slo is empty: give at least one rule, e.g. --slo turn.p50=900ms,errors=0');
  return rules;
}

/** The value a rule reads; null when there is none (no sample of that timing). */
export function sloValue(f: LoadFigures, metric: string): number | null {
  const [head, tail] = metric.split('.') as [string, string | undefined];
  if (head === 'errors') return tail ? (f.errors[tail] ?? 0) : f.counts.errors;
  if ((COUNTS as readonly string[]).includes(head)) return f.counts[head as CountName];
  const s = f.timings[head as TimingName];
  return s[tail as 'p50' | 'p95' | 'p99' | 'max'];
}

export interface SloResult {
  rule: string;
  value: number | null;
  ok: boolean;
}

/** Every rule with its value; a timing with no sample fails its rule (nothing was shown to be fast). */
export function checkSlo(f: LoadFigures, rules: readonly SloRule[]): SloResult[] {
  return rules.map((r) => {
    const value = sloValue(f, r.metric);
    const ok = value !== null && (r.op === '<=' ? value <= r.limit : value >= r.limit);
    return { rule: r.text, value, ok };
  });
}
