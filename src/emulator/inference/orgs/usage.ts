import type { Db } from '../../db/database.js';
import { inferenceSql } from '../shared/sql.js';

/**
 * Usage aggregates (spec 4.12, payload not shown) over [start, end) in Unix seconds:
 * totals, per model and per UTC day. Every inference request is counted once, as an API
 * request or a job submission the way the rate limits count them (spec 8).
 */
export function usageAggregates(db: Db, orgId: string, start: number, end: number) {
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
  const sql = inferenceSql(db);
  const totals = sql.usageTotals.get(orgId, start, end) as Record<string, number>;
  const byModel = sql.usageByModel.all(orgId, start, end) as (Record<string, number> & {
    model_id: string;
  })[];
  const byDay = sql.usageByDay.all(orgId, start, end) as (Record<string, number> & {
    day: number;
  })[];
  return {
    object: 'usage',
    org_id: orgId,
    start,
    end,
    totals: shape(totals),
    by_model: byModel.map((r) => ({ model_id: r.model_id, ...shape(r) })),
    by_day: byDay.map((r) => ({
      date: new Date(r.day * 1000).toISOString().slice(0, 10),
      start: r.day,
      ...shape(r),
    })),
  };
}
