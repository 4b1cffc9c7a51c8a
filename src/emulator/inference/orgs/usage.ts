import type { Db } from '../../db/database.js';

type Row = Record<string, number | null>;

/**
 * One usage table over [start, end) in Unix seconds for an organisation: the totals, one
 * entry per `group` key (its columns first) and one per UTC day, each through `shape`.
 */
function aggregate<S>(
  db: Db,
  q: { table: string; cols: string; group: string[]; groupWhere?: string },
  shape: (r: Row) => S,
  orgId: string,
  start: number,
  end: number,
) {
  const where = 'org_id = ? AND at >= ? AND at < ?';
  const keys = q.group.join(', ');
  const totals = db
    .prepare(`SELECT ${q.cols} FROM ${q.table} WHERE ${where}`)
    .get(orgId, start, end) as Row;
  const grouped = db
    .prepare(
      `SELECT ${keys}, ${q.cols} FROM ${q.table} WHERE ${where} ${q.groupWhere ?? ''} GROUP BY ${keys} ORDER BY ${keys}`,
    )
    .all(orgId, start, end) as Row[];
  const byDay = db
    .prepare(
      `SELECT (at / 86400) * 86400 AS day, ${q.cols} FROM ${q.table} WHERE ${where} GROUP BY day ORDER BY day`,
    )
    .all(orgId, start, end) as (Row & { day: number })[];
  return {
    totals: shape(totals),
    grouped: grouped.map((r) => ({
      ...Object.fromEntries(q.group.map((k) => [k, r[k]])),
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
  const inference = aggregate(
    db,
    {
      table: 'inference_usage',
      cols: `COUNT(*) AS requests,
    SUM(kind = 'api') AS api_requests, SUM(kind = 'jobs') AS job_submissions,
    SUM(status >= 400) AS errors,
    SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens,
    SUM(audio_seconds) AS audio_seconds, SUM(images) AS images`,
      group: ['model_id'],
      groupWhere: 'AND model_id IS NOT NULL',
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
    db,
    {
      table: 'tool_usage',
      cols: `COUNT(*) AS calls, SUM(ok) AS succeeded, SUM(1 - ok) AS failed,
    SUM(images) AS images, SUM(ms) AS total_ms`,
      group: ['server', 'tool'],
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
    object: 'usage',
    org_id: orgId,
    start,
    end,
    builtin_tools: { ...tools.totals, by_tool: tools.grouped, by_day: tools.byDay },
    totals: inference.totals,
    by_model: inference.grouped,
    by_day: inference.byDay,
  };
}
