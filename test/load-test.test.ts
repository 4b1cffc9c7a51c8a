/**
 * `avatar load-test` (issue 18 item 8) against a real emulator: every session mints (one
 * through the queue), connects, talks in turns and is released; the report's figures and
 * the `--slo` exit code are what a CI job reads. Wall-clock figures are not asserted, only
 * that each was measured.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultVoice, writeWav } from '../src/models/voice/index.js';
import { checkSlo, parseSlo, percentile, summarize } from '../src/cli/load/stats.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

// Two seats for three sessions: the third waits in the queue until one is released.
const h = useEmulator({
  seats: 2,
  boxes: 1,
  planLimits: { free: { concurrency: 100, maxCapSeconds: 3600 } },
  mintRatePerMinute: 0,
});
const env = () => emulatorEnv(h);

describe('load-test figures', () => {
  it('percentiles are nearest-rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([
      percentile(xs, 50),
      percentile(xs, 95),
      percentile(xs, 99),
      percentile(xs, 100),
    ]).toEqual([50, 95, 99, 100]);
    expect(summarize([])).toEqual({ n: 0, p50: null, p95: null, p99: null, max: null });
  });

  it('--slo rules: times in ms or s, counts, errors by code; a timing with no sample fails', () => {
    const rules = parseSlo(
      'turn.p50=900ms, connect.p99<=2s,errors=0,errors.rate_limited=0,turns>=3',
    );
    expect(rules.map((r) => [r.metric, r.op, r.limit])).toEqual([
      ['turn.p50', '<=', 900],
      ['connect.p99', '<=', 2000],
      ['errors', '<=', 0],
      ['errors.rate_limited', '<=', 0],
      ['turns', '>=', 3],
    ]);
    const empty = { n: 0, p50: null, p95: null, p99: null, max: null };
    const figures = {
      timings: {
        mint: empty,
        queue_wait: empty,
        connect: { n: 1, p50: 10, p95: 10, p99: 10, max: 10 },
        first_media: empty,
        turn: empty,
        chat_first_speech: empty,
      },
      counts: { errors: 1, late_fragments: 0, unseated: 0, turns: 3 },
      errors: { turn_timeout: 1 },
    };
    expect(checkSlo(figures, rules).map((r) => r.ok)).toEqual([false, true, false, true, true]);
    expect(() => parseSlo('turn=900ms')).toThrow(/\.p50, \.p95, \.p99 or \.max/);
    expect(() => parseSlo('speed.p50=1')).toThrow(/unknown metric speed/);
  });
});

describe('avatar load-test', () => {
  it('runs the sessions, one through the queue, and reports every step; --json for CI', async () => {
    // --turns 1: each session frees its seat after one turn, so the third gets one.
    const r = await cli(
      ['load-test', '--sessions', '3', '--ramp', '0', '--duration', '12', '--turns', '1', '--json'],
      env(),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rep = r.json();
    expect(rep).toMatchObject({ sessions: 3, protocol: 1, counts: { errors: 0 }, errors: {} });
    // Two seats: two mint at once, the third queues until one is released; users then mint again.
    expect(rep.timings.mint.n).toBeGreaterThanOrEqual(3);
    expect(rep.timings.queue_wait.n).toBeGreaterThanOrEqual(1);
    expect(rep.timings.connect.n).toBe(rep.timings.mint.n);
    expect(rep.timings.first_media.n).toBe(rep.timings.connect.n);
    expect(rep.counts.turns).toBeGreaterThanOrEqual(2);
    expect(rep.timings.chat_first_speech.n).toBeGreaterThanOrEqual(1);
    for (const t of ['mint', 'connect', 'first_media', 'chat_first_speech'])
      expect(rep.timings[t].p50).toBeGreaterThanOrEqual(0);
    // Every seat was released and the ticket still queued at the end was cancelled.
    const boxes = (await (await h.op('/_emulator/boxes')).json()) as {
      data: { held: number; free: number; seats: number }[];
    };
    expect(boxes.data.map((b) => [b.held, b.free])).toEqual([[0, 2]]);
    expect(await (await h.op('/_emulator/queue')).json()).toMatchObject({ waiting: 0 });
  }, 60_000);

  it('--mic-file: end of speech -> turn is measured; a brain-only session saying it has no media is no error', async () => {
    const wav = join(mkdtempSync(join(tmpdir(), 'avatar-load-')), 'q.wav');
    const speech = await defaultVoice().synthesize('Hello there. Where did you grow up?');
    writeFileSync(wav, writeWav(speech.samples, speech.sampleRate));
    const args = [
      'load-test',
      '--sessions',
      '1',
      '--ramp',
      '0',
      '--duration',
      '10',
      '--mic-file',
      wav,
      '--data',
      '{"config":{"render":false}}',
      '--json',
    ];
    const r = await cli(args, env());
    expect(r.code).toBe(0);
    const rep = r.json();
    expect(rep.errors).toEqual({});
    expect(rep.timings.turn.n).toBeGreaterThanOrEqual(1);
    expect(rep.timings.first_media.n).toBe(0);
    expect(rep.turn_input).toEqual({ mic_file: wav, say: null });
  }, 60_000);

  it('--protocol 2: the sessions talk over /v2/session (typed turns as chat messages)', async () => {
    const r = await cli(
      [
        'load-test',
        '--protocol',
        '2',
        '--sessions',
        '1',
        '--ramp',
        '0',
        '--duration',
        '6',
        '--json',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    const rep = r.json();
    expect(rep).toMatchObject({ protocol: 2, errors: {} });
    expect(rep.timings.first_media.n).toBe(1);
    expect(rep.timings.chat_first_speech.n).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('an --slo breach exits 6 naming the rule; a malformed --slo is a usage error before any mint', async () => {
    const r = await cli(
      [
        'load-test',
        '--sessions',
        '1',
        '--ramp',
        '0',
        '--duration',
        '1',
        '--slo',
        'turns>=1000',
        '--json',
      ],
      env(),
    );
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: 'slo_breached',
      message: 'SLO breached: turns>=1000 (was 1)',
    });
    expect(r.json().slo).toEqual([{ rule: 'turns>=1000', value: 1, ok: false }]);
    const bad = await cli(['load-test', '--slo', 'turn.p42=1s'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--slo turn\.p42=1s/);
  }, 60_000);
});
