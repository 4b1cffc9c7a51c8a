/**
 * The body of `avatar load-test` (docs/testing.md "Load test"): options checked
 * before anything is minted, the run (src/cli/load/load-run.ts), one progress line
 * rewritten on a terminal, the report (a table, or the JSON body with --json) and the
 * `--slo` verdict as the exit code.
 */
import { loadavg } from 'node:os';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { fitLine } from '../live/queue-line.js';
import { decodeToMicPcm } from '../live/mic-source.js';
import { runLoad, type LoadProgress } from './load-run.js';
import { checkSlo, parseSlo, TIMINGS, type SloResult, type SloRule } from './stats.js';
import { mintBodyFromOptions } from '../sessions/sessions.js';

function num(flag: string, v: unknown, min: number, integer: boolean): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) {
    throw new CliError(
      `${flag} must be ${integer ? 'a whole number' : 'a number'} of at least ${min} (got ${String(v)})`,
      ExitCode.usage,
    );
  }
  return n;
}

export async function runLoadTest(cli: CliContext, opts: Record<string, unknown>): Promise<void> {
  const json = !!cli.globals().json;
  const sessions = num('--sessions', opts.sessions, 1, true);
  const rampS = num('--ramp', opts.ramp, 0, false);
  const durationS = num('--duration', opts.duration, 0, false);
  const turnsPerSession =
    opts.turns === undefined ? undefined : num('--turns', opts.turns, 1, true);
  const turnTimeoutS = num('--turn-timeout', opts.turnTimeout, 1, false);
  const protocol = Number(opts.protocol);
  if (protocol !== 1 && protocol !== 2)
    throw new CliError(`--protocol must be 1 or 2 (got ${String(opts.protocol)})`, ExitCode.usage);
  let slo: SloRule[] | undefined;
  try {
    slo = typeof opts.slo === 'string' ? parseSlo(opts.slo) : undefined;
  } catch (e) {
    throw new CliError((e as Error).message, ExitCode.usage);
  }
  const micPcm =
    typeof opts.micFile === 'string'
      ? await decodeToMicPcm(opts.micFile).catch((e: Error) => {
          throw new CliError(e.message, ExitCode.usage);
        })
      : undefined;
  const say = typeof opts.say === 'string' ? opts.say : micPcm ? undefined : 'Where do you live?';
  const body = await mintBodyFromOptions(opts, cli);
  if (body.persona === undefined && body.avatar_id === undefined && body.avatar_ref === undefined)
    body.persona = 'ava';
  // Turns are what is measured: no greeting unless the mint body asks for one.
  const config = (body.config ?? {}) as Record<string, unknown>;
  body.config = { greeting_enabled: false, ...config };
  if (protocol === 2) body.protocol_versions = [2];

  const client = cli.client();
  const err = cli.io.stderr;
  const tty = !!err.isTTY && !json;
  const ctrl = new AbortController();
  const off = cli.onInterrupt(() => ctrl.abort(new Error('interrupted')));
  const total = rampS + durationS;
  const show = (p: LoadProgress) => {
    if (!tty) return;
    const turn = p.turnP50 === null ? '-' : `${p.turnP50} ms`;
    const variants = [
      `${p.elapsedS.toFixed(0)}/${total} s  started ${p.started}/${sessions}  live ${p.live}  queued ${p.queued}  turns ${p.turns}  turn p50 ${turn}  errors ${p.errors}`,
      `${p.elapsedS.toFixed(0)}/${total} s  live ${p.live}  queued ${p.queued}  turns ${p.turns}  errors ${p.errors}`,
    ];
    err.write(`\r\x1b[2K${fitLine(variants, err.columns ?? 80)}`);
  };
  cli.note(
    `load test: ${sessions} sessions over ${rampS} s, then ${durationS} s of turns, against ${client.baseUrl}`,
  );
  let figures;
  try {
    figures = await runLoad({
      client,
      sessions,
      rampS,
      durationS,
      mintBody: body,
      protocol,
      micPcm,
      say,
      turnsPerSession,
      lang: typeof opts.lang === 'string' ? opts.lang : 'en',
      origin: cli.globals().origin,
      turnTimeoutMs: turnTimeoutS * 1000,
      onProgress: show,
      signal: ctrl.signal,
    });
  } finally {
    off();
    if (tty) err.write('\r\x1b[2K');
  }
  const verdict = slo ? checkSlo(figures, slo) : undefined;
  const report = {
    target: client.baseUrl,
    sessions,
    ramp_s: rampS,
    duration_s: durationS,
    protocol,
    turn_input: {
      mic_file: typeof opts.micFile === 'string' ? opts.micFile : null,
      say: say ?? null,
    },
    ...figures,
    ...(verdict ? { slo: verdict } : {}),
    load_average: loadavg().map((x) => Math.round(x * 100) / 100),
    interrupted: ctrl.signal.aborted,
  };
  cli.print(report, () => humanReport(report, verdict));
  if (ctrl.signal.aborted)
    throw new CliError(
      'load test interrupted (the figures above are of what ran)',
      ExitCode.interrupted,
      undefined,
      true,
    );
  const broken = verdict?.filter((r) => !r.ok) ?? [];
  if (broken.length) {
    const message = `SLO breached: ${broken.map((r) => `${r.rule} (was ${r.value ?? 'no sample'})`).join(', ')}`;
    throw new CliError(message, ExitCode.checkFailed, {
      error: 'slo_breached',
      message,
      breached: broken,
    });
  }
}

type Report = Awaited<ReturnType<typeof runLoad>> & {
  target: string;
  sessions: number;
  load_average: number[];
};

export function humanReport(r: Report, verdict: SloResult[] | undefined): string {
  const cell = (v: number | null) => (v === null ? '-' : `${v} ms`).padStart(9);
  const lines = [
    `${r.sessions} sessions against ${r.target} in ${r.elapsed_s} s (load average ${r.load_average.join(' ')})`,
    '',
  ];
  lines.push(
    `${'timing'.padEnd(20)}${'n'.padStart(6)}${'p50'.padStart(9)}${'p95'.padStart(9)}${'p99'.padStart(9)}${'max'.padStart(9)}`,
  );
  for (const t of TIMINGS) {
    const s = r.timings[t];
    lines.push(
      `${t.padEnd(20)}${String(s.n).padStart(6)}${cell(s.p50)}${cell(s.p95)}${cell(s.p99)}${cell(s.max)}`,
    );
  }
  lines.push(
    '',
    `turns ${r.counts.turns}, late fragments ${r.counts.late_fragments}, never seated ${r.counts.unseated}, errors ${r.counts.errors}`,
  );
  for (const [code, n] of Object.entries(r.errors).sort((a, b) => b[1] - a[1]))
    lines.push(`  ${code}: ${n}`);
  if (verdict) {
    lines.push('');
    for (const v of verdict)
      lines.push(`${v.ok ? 'ok  ' : 'FAIL'} ${v.rule} (${v.value ?? 'no sample'})`);
  }
  return lines.join('\n');
}
