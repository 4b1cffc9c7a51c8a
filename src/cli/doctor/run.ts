/**
 * `avatar doctor`'s run: probe, print the table (or `--json`), pick the exit code.
 */
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { wrapText } from '../wrap.js';
import { countRows, renderReport, type CheckRow } from './checks.js';
import { probeHttp, probeLive } from './probes.js';

export interface DoctorOptions {
  live?: boolean;
  say?: string;
  timeout?: string;
}

export async function runDoctor(cli: CliContext, o: DoctorOptions): Promise<void> {
  const timeoutS = Number(o.timeout ?? 30);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    throw new CliError(
      `--timeout must be a positive number of seconds (got ${String(o.timeout)})`,
      ExitCode.usage,
    );
  if (o.say !== undefined && !o.say.trim())
    throw new CliError('--say must be a non-empty line (the typed turn of --live)', ExitCode.usage);
  const conn = cli.connection();
  const client = cli.client();
  const rows: CheckRow[] = [];
  let refused = false;
  try {
    const http = await probeHttp(client, { workspaceId: conn.workspaceId });
    // No gallery and no JWKS: not a deployment that differs, a URL that is not the service.
    if (http.notTheService)
      throw new CliError(
        `nothing at ${conn.baseUrl} looks like the avatar service (GET /api/gallery and the JWKS answer 404): --base-url is the service's origin, e.g. http://127.0.0.1:4780`,
        ExitCode.network,
      );
    rows.push(...http.rows);
    if (http.keyRefused) refused = true;
    else if (o.live) {
      if (!http.persona)
        rows.push({
          check: 'live',
          result: 'fail',
          detail: 'no persona in the gallery to talk to',
        });
      else
        for (const protocol of [1, 2] as const)
          rows.push(
            ...(await probeLive(cli, client, protocol, {
              persona: http.persona,
              say: o.say ?? 'Hello, who are you?',
              timeoutMs: timeoutS * 1000,
            })),
          );
    } else
      rows.push({ check: 'live', result: 'skip', detail: 'skipped: writes a session; --live' });
  } finally {
    await client.close();
  }
  const counts = countRows(rows);
  // A refused key checked next to nothing: not a clean run, whatever the counts say.
  const ok = counts.fail === 0 && !refused;
  if (cli.globals().json)
    cli.io.stdout.write(
      JSON.stringify({
        ok,
        ...(refused ? { key_refused: true } : {}),
        base_url: conn.baseUrl,
        counts,
        checks: rows,
      }) + '\n',
    );
  else {
    const out = cli.io.stdout;
    const width = out.isTTY && (out.columns ?? 0) >= 40 ? out.columns! : 80;
    out.write(renderReport(rows, width, wrapText) + '\n');
    out.write(
      `\n${counts.ok} ok, ${counts.fail} mismatched, ${counts.skip} skipped against ${conn.baseUrl}\n`,
    );
  }
  if (refused)
    throw new CliError(
      conn.apiKey
        ? `${conn.baseUrl} refused the key ${conn.apiKey.slice(0, 8)}… (401) on every keyed route: check --api-key / AVATAR_API_KEY`
        : `${conn.baseUrl} refused to answer without a key (401) on every keyed route: pass --api-key or set AVATAR_API_KEY`,
      ExitCode.apiClientError,
    );
  if (!ok)
    throw new CliError(
      `${counts.fail} check${counts.fail === 1 ? '' : 's'} differ from the contract`,
      ExitCode.contractMismatch,
      undefined,
      !cli.globals().json,
    );
}
