import type { Db } from '../../db/database.js';

/**
 * Usage aggregates (spec 4.12, payload not shown) over [start, end) in Unix seconds:
 * totals, per model and per UTC day. Every inference request is counted once, as an API
 * request or a job submission the way the rate limits count them (spec 8).
 */
export function usageAggregates(db: Db, orgId: string, start: number, end: number) {
  const cols = `COUNT(*) AS requests,
    SUM(kind = 'api') AS api_requests, SUM(kind = 'jobs') AS job_submissions,
    SUM(status >= 400) AS errors,
    SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens,
    SUM(audio_seconds) AS audio_seconds, SUM(images) AS images`;
  const where = 'org_id = ? AND at >= ? AND at < ?';
  const shape = (r: Record<string, number | null>) => ({
    requests: r.requests ?? 0,
    api_requests: r.api_requests ?? 0,
    job_submissions: r.job_submissions ?? 0,
    errors: r.errors ?? 0,
    prompt_tokens: r.prompt_tokens ?? 0,
    completion_tokens: r.completion_tokens ?? 0,
    total_tokens: (r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0),
    audio_seconds: Math.round((r.audio_seconds ?? 0) * 1000) / 1000,
    images: r.images ?? 0,
  });
  const totals = db
    .prepare(`SELECT ${cols} FROM inference_usage WHERE ${where}`)
    .get(orgId, start, end) as Record<string, number>;
  const byModel = db
    .prepare(
      `SELECT model_id, ${cols} FROM inference_usage WHERE ${where} AND model_id IS NOT NULL GROUP BY model_id ORDER BY model_id`,
    )
    .all(orgId, start, end) as (Record<string, number> & { model_id: string })[];
  const byDay = db
    .prepare(
      `SELECT (at / 86400) * 86400 AS day, ${cols} FROM inference_usage WHERE ${where} GROUP BY day ORDER BY day`,
    )
    .all(orgId, start, end) as (Record<string, number> & { day: number })[];
  return {
    object: 'usage',
    org_id: orgId,
    start,
    end,
    builtin_tools: builtinToolUsage(db, orgId, start, end),
    totals: shape(totals),
    by_model: byModel.map((r) => ({ model_id: r.model_id, ...shape(r) })),
    by_day: byDay.map((r) => ({
      date: new Date(r.day * 1000).toISOString().slice(0, 10),
      start: r.day,
      ...shape(r),
    })),
  };
}

/**
 * Built-in tool calls the boxes reported (spec 6.3 "usage records"; shape ours,
 * docs/fidelity.md): totals, per server and tool, per UTC day.
 */
function builtinToolUsage(db: Db, orgId: string, start: number, end: number) {
  const cols = `COUNT(*) AS calls, SUM(ok) AS succeeded, SUM(1 - ok) AS failed,
    SUM(images) AS images, SUM(ms) AS total_ms`;
  const where = 'org_id = ? AND at >= ? AND at < ?';
  const shape = (r: Record<string, number | null>) => ({
    calls: r.calls ?? 0,
    succeeded: r.succeeded ?? 0,
    failed: r.failed ?? 0,
    images: r.images ?? 0,
    total_ms: r.total_ms ?? 0,
  });
  const totals = db
    .prepare(`SELECT ${cols} FROM tool_usage WHERE ${where}`)
    .get(orgId, start, end) as Record<string, number>;
  const byTool = db
    .prepare(
      `SELECT server, tool, ${cols} FROM tool_usage WHERE ${where} GROUP BY server, tool ORDER BY server, tool`,
    )
    .all(orgId, start, end) as (Record<string, number> & { server: string; tool: string })[];
  const byDay = db
    .prepare(
      `SELECT (at / 86400) * 86400 AS day, ${cols} FROM tool_usage WHERE ${where} GROUP BY day ORDER BY day`,
    )
    .all(orgId, start, end) as (Record<string, number> & { day: number })[];
  return {
    ...shape(totals),
    by_tool: byTool.map((r) => ({ server: r.server, tool: r.tool, ...shape(r) })),
    by_day: byDay.map((r) => ({
      date: new Date(r.day * 1000).toISOString().slice(0, 10),
      start: r.day,
      ...shape(r),
    })),
  };
}
