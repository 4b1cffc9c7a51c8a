import { performance } from 'node:perf_hooks';
import { ApiResponseError, type AvatarClient } from '../client/client.js';
import { connectEdge } from '../client/edge-connect.js';
import type { EdgeConnection } from '../client/edge-events.js';
import { mintAndWait, realSleep } from '../client/mint-queue.js';

/**
 * The sessions of `avatar load-test` (issue 18 item 8, first part; docs/testing.md "Load
 * test"): N sessions started over a ramp, each minted through the queue, connected, held
 * for the duration (saying `say` once its first media arrived, when given), then closed.
 * Times are wall-clock milliseconds measured by the client (performance.now()).
 */
export interface LoadOptions {
  sessions: number;
  rampS: number;
  durationS: number;
  persona: string;
  say?: string;
  /** Called as each session finishes (live progress). */
  onSession?: (done: number, total: number) => void;
}

export interface LoadReport {
  sessions: number;
  completed: number;
  metrics: Record<string, { count: number; p50: number | null; p95: number | null; p99: number | null }>;
  queued: number;
  errors: Record<string, number>;
}

const METRICS = ['mint_ms', 'queue_wait_ms', 'connect_ms', 'first_media_ms', 'chat_to_speech_ms'] as const;
type Metric = (typeof METRICS)[number];

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (n: number) => Math.round(n * 10) / 10;

function waitFor(conn: EdgeConnection, pred: (e: Parameters<Parameters<EdgeConnection['on']>[0]>[0]) => boolean, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      off();
      reject(Object.assign(new Error('timeout'), { code: 'timeout' }));
    }, timeoutMs);
    const off = conn.on((e) => {
      if (e.type === 'closed') {
        clearTimeout(t);
        off();
        reject(Object.assign(new Error(`closed: ${e.reason}`), { code: `closed_${e.reason}` }));
      } else if (pred(e)) {
        clearTimeout(t);
        off();
        resolve();
      }
    });
  });
}

export async function runLoad(client: AvatarClient, o: LoadOptions): Promise<LoadReport> {
  const values: Record<Metric, number[]> = { mint_ms: [], queue_wait_ms: [], connect_ms: [], first_media_ms: [], chat_to_speech_ms: [] };
  const errors: Record<string, number> = {};
  let queued = 0;
  let completed = 0;
  let done = 0;
  const fail = (e: unknown) => {
    const code = e instanceof ApiResponseError ? e.code : ((e as { code?: string }).code ?? 'error');
    errors[code] = (errors[code] ?? 0) + 1;
  };
  const one = async (i: number) => {
    await realSleep(o.sessions > 1 ? (o.rampS * 1000 * i) / (o.sessions - 1) : 0);
    let conn: EdgeConnection | undefined;
    try {
      const t0 = performance.now();
      let firstQueued: number | null = null;
      const m = await mintAndWait(client, { persona: o.persona }, { onQueued: () => (firstQueued ??= performance.now()) });
      const t1 = performance.now();
      values.mint_ms.push(t1 - t0);
      if (firstQueued !== null) {
        queued++;
        values.queue_wait_ms.push(t1 - firstQueued);
      }
      if (m.status !== 201) return;
      const mint = m.body as { connect_url: string; session_token: string; protocol_version?: number };
      conn = await connectEdge({ connectUrl: mint.connect_url, token: mint.session_token, protocol: mint.protocol_version === 2 ? 2 : 1 });
      let mediaAt = 0;
      const media = waitFor(conn, (e) => e.type === 'media' && ((mediaAt = performance.now()), true), 30_000);
      await conn.ready;
      values.connect_ms.push(performance.now() - t1);
      await media;
      // From the start of connecting: the first fragment may come before every socket is open.
      values.first_media_ms.push(mediaAt - t1);
      if (o.say) {
        const speech = waitFor(conn, (e) => e.type === 'speech' && e.status === 'started', 30_000);
        const t3 = performance.now();
        await conn.chat(o.say);
        await speech;
        values.chat_to_speech_ms.push(performance.now() - t3);
      }
      const left = o.durationS * 1000 - (performance.now() - t1);
      if (left > 0) await realSleep(left);
      completed++;
    } catch (e) {
      fail(e);
    } finally {
      await conn?.close().catch(() => undefined);
      o.onSession?.(++done, o.sessions);
    }
  };
  await Promise.all(Array.from({ length: o.sessions }, (_, i) => one(i)));
  const metrics = {} as LoadReport['metrics'];
  for (const k of METRICS) {
    const s = [...values[k]].sort((a, b) => a - b);
    const pick = (p: number) => {
      const v = percentile(s, p);
      return v === null ? null : round(v);
    };
    metrics[k] = { count: s.length, p50: pick(50), p95: pick(95), p99: pick(99) };
  }
  return { sessions: o.sessions, completed, metrics, queued, errors };
}

/** `--slo first_media_ms.p95<2000,mint_ms.p99<500`: the breaches, as lines. */
export function sloBreaches(report: LoadReport, slo: string): string[] {
  const out: string[] = [];
  for (const part of slo.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z_]+)\.(p50|p95|p99)<(\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new Error(`--slo: "${part}" is not metric.p50|p95|p99<ms (metrics: ${METRICS.join(', ')})`);
    const metric = report.metrics[m[1]!];
    if (!metric) throw new Error(`--slo: no metric ${m[1]} (metrics: ${METRICS.join(', ')})`);
    const v = metric[m[2] as 'p50' | 'p95' | 'p99'];
    if (v !== null && v >= Number(m[3])) out.push(`${m[1]}.${m[2]} ${v} ms >= ${m[3]} ms`);
  }
  if (Object.keys(report.errors).length > 0 && /errors/.test(slo)) out.push('errors');
  return out;
}
