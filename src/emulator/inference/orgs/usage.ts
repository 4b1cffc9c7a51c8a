import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/database.js';
import { inferenceSql } from '../shared/sql.js';

type Row = Record<string, number | null>;

/**
 * One usage table over [start, end) in Unix seconds for an organisation: the totals, one
 * entry per `group` key (its columns first) and one per UTC day, each through `shape`.
 */
function aggregate<S, G extends string>(
  q: { totals: Statement; grouped: Statement; byDay: Statement; group: readonly G[] },
  shape: (r: Row) => S,
  orgId: string,
  start: number,
  end: number,
) {
  const totals = q.totals.get(orgId, start, end) as Row;
  const grouped = q.grouped.all(orgId, start, end) as Row[];
  const byDay = q.byDay.all(orgId, start, end) as (Row & { day: number })[];
  return {
    totals: shape(totals),
    grouped: grouped.map((r) => ({
      // The group's columns (model_id; server, tool) are text, null where none was recorded.
      ...(Object.fromEntries(q.group.map((k) => [k, r[k]])) as Record<G, string | null>),
      ...shape(r),
    })),
    byDay: byDay.map((r) => ({
      date: new Date(r.day * 1000).toISOString().slice(0, 10),
      start: r.day,
      ...shape(r),
    })),
  };
}

/**
 * Usage aggregates (spec 4.12, payload not shown) over [start, end) in Unix seconds:
 * totals, per model and per UTC day. Every inference request is counted once, as an API
 * request or a job submission the way the rate limits count them (spec 8). Built-in tool
 * calls the boxes reported are `builtin_tools` (spec 6.3 "usage records").
 */
export function usageAggregates(db: Db, orgId: string, start: number, end: number) {
  const sql = inferenceSql(db);
  const inference = aggregate(
    {
      totals: sql.usageTotals,
      grouped: sql.usageByModel,
      byDay: sql.usageByDay,
      group: ['model_id'] as const,
    },
    (r) => ({
      requests: r.requests ?? 0,
      api_requests: r.api_requests ?? 0,
      job_submissions: r.job_submissions ?? 0,
      errors: r.errors ?? 0,
      prompt_tokens: r.prompt_tokens ?? 0,
      completion_tokens: r.completion_tokens ?? 0,
      total_tokens: (r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0),
      audio_seconds: Math.round((r.audio_seconds ?? 0) * 1000) / 1000,
      images: r.images ?? 0,
    }),
    orgId,
    start,
    end,
  );
  // Built-in tool calls (shape ours, docs/fidelity.md "Tools").
  const tools = aggregate(
    {
      totals: sql.toolUsageTotals,
      grouped: sql.toolUsageByTool,
      byDay: sql.toolUsageByDay,
      group: ['server', 'tool'] as const,
    },
    (r) => ({
      calls: r.calls ?? 0,
      succeeded: r.succeeded ?? 0,
      failed: r.failed ?? 0,
      images: r.images ?? 0,
      total_ms: r.total_ms ?? 0,
    }),
    orgId,
    start,
    end,
  );
  return {
    object: 'usage' as const,
    org_id: orgId,
    start,
    end,
    builtin_tools: { ...tools.totals, by_tool: tools.grouped, by_day: tools.byDay },
    totals: inference.totals,
    by_model: inference.grouped,
    by_day: inference.byDay,
  };
}
