import { describe, expect, it } from 'vitest';
import { percentile, sloBreaches, type LoadReport } from '../src/cli/load-test-run.js';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 18 item 8 (first part): `avatar load-test` mints through the queue, connects,
 * waits for media, says one line, and reports percentiles; --slo makes a breach an exit 1.
 */
const h = useEmulator({ seats: 2, mintRatePerMinute: 0 });
const env = () => isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });

describe('avatar load-test', () => {
  it('3 sessions on 2 seats: every one completes, one waited in the queue, each metric has its count', async () => {
    const r = await cli(['--json', 'load-test', '--sessions', '3', '--ramp', '0', '--duration', '0', '--say', 'hello there'], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = r.json() as LoadReport;
    expect(report).toMatchObject({ sessions: 3, completed: 3, errors: {} });
    expect(report.queued).toBeGreaterThanOrEqual(1);
    for (const k of ['mint_ms', 'connect_ms', 'first_media_ms', 'chat_to_speech_ms']) expect(report.metrics[k]!.count).toBe(3);
    expect(report.metrics.queue_wait_ms!.count).toBe(report.queued);
    // An SLO nothing can meet is a breach: exit 1 naming it.
    const slo = await cli(['load-test', '--sessions', '1', '--duration', '0', '--slo', 'first_media_ms.p95<0'], env());
    expect(slo.code).toBe(1);
    expect(slo.stderr).toMatch(/SLO breached: first_media_ms\.p95 [\d.]+ ms >= 0 ms/);
  }, 120_000);

  it('percentiles are nearest-rank; a malformed --slo names itself', () => {
    const s = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(s, 50), percentile(s, 95), percentile(s, 99), percentile([], 50)]).toEqual([50, 95, 99, null]);
    const report: LoadReport = { sessions: 1, completed: 1, queued: 0, errors: {}, metrics: { mint_ms: { count: 1, p50: 5, p95: 5, p99: 5 } } };
    expect(sloBreaches(report, 'mint_ms.p99<10')).toEqual([]);
    expect(() => sloBreaches(report, 'mint<10')).toThrow(/--slo: "mint<10" is not metric/);
  });
});
