import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { isLoopbackHost } from '../../contract/hosts.js';
import { cliName } from '../cli-name.js';
import { wrapText } from '../wrap.js';
import {
  clearEmulatorState,
  describeEmulators,
  emulatorsDir,
  listEmulators,
  pickEmulator,
  writeEmulatorState,
  type EmulatorState,
} from '../config.js';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { formatTime, renderTable } from '../output.js';
import { emulatorFlags } from './emulator-flags.js';
import { collect } from './emulator-flag.js';
import { addCommand, defineCommand } from '../define.js';
import { registerExec } from './emulator-exec.js';
import { clockCommand } from './emulator-clock.js';
import { stateCommands } from './emulator-state.js';
import { registerLogs } from './emulator-logs.js';
import { faultsCommand } from './emulator-faults.js';
import { registerScripts } from './emulator-scripts.js';

function relaxations(opts: Record<string, unknown>): string[] {
  const list: string[] = [];
  if (opts.allowInsecureUrls)
    list.push('--allow-insecure-urls: plain-http and loopback hook/webhook URLs accepted');
  if (opts.allowRemoteMedia)
    list.push('--allow-remote-media: speak fetches media URLs from any host, not only loopback');
  return list;
}

const wideBind = (host: string) =>
  `listening on ${host}, not loopback: the API and the operator routes (/_emulator/*) are reachable from the network, for anyone with a key (docs/security.md)`;

/** A warning when the emulator is reachable from beyond this machine (docs/security.md). */
export function bindNotes(host: string, allowedHosts: string[]): string[] {
  const lines: string[] = [];
  if (!isLoopbackHost(host)) {
    const [first, ...rest] = wrapText(wideBind(host), 80 - 17).split('\n');
    lines.push(`  WARNING        ${first}`, ...rest.map((l) => `                 ${l}`));
  }
  if (allowedHosts.length > 0)
    lines.push(`  allowed hosts  ${allowedHosts.join(', ')} (besides localhost, 127.0.0.1, [::1])`);
  return lines;
}

const optionKey = (flags: string) =>
  flags
    .replace(/^--(no-)?/, '')
    .split(' ')[0]!
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Every flag parsed and range-checked (usage error naming the flag) before anything starts. */
function startOptions(opts: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const f of emulatorFlags) {
    const v = opts[optionKey(f.flags)];
    if (v === undefined) continue;
    try {
      options[f.option] = Array.isArray(v)
        ? v.map((x: string) => (f.parse ? f.parse(x) : x))
        : f.parse && typeof v === 'string'
          ? f.parse(v)
          : v;
    } catch (e) {
      throw new CliError((e as Error).message, ExitCode.usage);
    }
  }
  if (typeof options.host === 'string' && options.host.trim() === '')
    throw new CliError('--host must not be empty', ExitCode.usage);
  return options;
}

/** Where `npm link` puts this CLI on PATH: in its checkout, which is not always the current directory. */
function linkHint(cwd: string): string {
  const checkout = fileURLToPath(new URL('../../../', import.meta.url)).replace(/\/$/, '');
  return checkout === cwd
    ? '(`npm link` here once puts `avatar` on your PATH.)'
    : `(\`npm link\` once in ${checkout} puts \`avatar\` on your PATH.)`;
}

async function start(cli: CliContext, opts: Record<string, unknown>): Promise<void> {
  const options = startOptions(opts);
  // A fixed operator token comes from the environment, never a flag (a flag shows in `ps`).
  const token = cli.io.env.AVATAR_OPERATOR_TOKEN?.trim();
  if (token) options.operatorToken = token;
  // Lazy: the server, SQLite and ffmpeg helpers load only for this command.
  const { startEmulator, EmulatorStartError } = await import('../../emulator/start.js');
  let emu;
  try {
    emu = await startEmulator(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') {
      throw new CliError(
        `port ${String(options.port ?? 4780)} is in use: pass --port 0 for any free port, or stop the other emulator`,
        ExitCode.usage,
      );
    }
    // A data dir that cannot be used or is held by another emulator, a bad --host: the user's to fix.
    if (e instanceof EmulatorStartError) throw new CliError(e.message, ExitCode.usage);
    // Anything else: startEmulator has stopped what it started; say so and exit non-zero.
    throw new CliError(
      `the emulator could not start (nothing is left running): ${err.message}`,
      ExitCode.internal,
    );
  }
  const { io } = cli;
  // Listen for Ctrl-C/SIGTERM before announcing readiness: a script may signal as soon as
  // it reads the ready line.
  const stopped = new Promise<void>((resolveStop) => {
    const off = cli.onInterrupt(() => {
      off();
      resolveStop();
    });
  });
  const dataDir = emu.ctx.options.inMemory ? null : String(emu.ctx.options.dataDir);
  const state: EmulatorState = {
    pid: process.pid,
    base_url: emu.baseUrl,
    workspace_id: emu.keys.workspaceId,
    org_id: emu.keys.orgId,
    secret_key: emu.keys.secretKey,
    dashboard_key: emu.keys.dashboardKey,
    data_dir: dataDir === null ? null : resolve(io.cwd, dataDir),
    started_at: Math.floor(Date.now() / 1000),
  };
  writeEmulatorState(io.env, state);
  const others = listEmulators(io.env).filter((s) => s.base_url !== emu.baseUrl);

  if (opts.json) {
    io.stdout.write(
      JSON.stringify({
        base_url: emu.baseUrl,
        workspace_id: emu.keys.workspaceId,
        org_id: emu.keys.orgId,
        secret_key: emu.keys.secretKey,
        dashboard_key: emu.keys.dashboardKey,
        operator_token: emu.operatorToken,
      }) + '\n',
    );
    // stdout stays one JSON line; a wide bind is still said, on stderr.
    const host = String(emu.ctx.options.host);
    if (!isLoopbackHost(host)) io.stderr.write(`warning: ${wideBind(host)}\n`);
  } else {
    const avatar = cliName(io);
    const lines = [
      `avatar emulator listening on ${emu.baseUrl}`,
      `  playground     ${emu.baseUrl}/_emulator/ui  (open it in a browser)`,
      `  store          ${dataDir ? `${dataDir} (SQLite, WAL)` : 'in memory'}`,
      `  workspace_id   ${emu.keys.workspaceId}`,
      `  org_id         ${emu.keys.orgId}`,
      '  secret key     (workspace-bound, scopes *)',
      `    ${emu.keys.secretKey}`,
      '  dashboard key  (not workspace-bound, scopes *)',
      `    ${emu.keys.dashboardKey}`,
      '  operator token (/_emulator/* routes; the keys above work too)',
      `    ${emu.operatorToken}`,
      ...bindNotes(String(emu.ctx.options.host), emu.ctx.options.allowedHosts ?? []),
      ...relaxations(emu.ctx.options).map((r) => `  relaxed        ${r}`),
      '',
      // One suggestion a line: side by side they passed 80 columns and wrapped mid-word.
      `Try: curl ${emu.baseUrl}/api/gallery`,
      `  or ${avatar} gallery list`,
      ...(avatar.startsWith('node ') ? [linkHint(io.cwd)] : []),
      `The CLI finds this emulator without flags. Ctrl-C stops it.`,
    ];
    io.stdout.write(lines.join('\n') + '\n');
  }
  if (others.length > 0) {
    // Several emulators: say which one the CLI now uses from here (issue 7 item 3).
    const pick = pickEmulator(io.env, io.cwd);
    const which = pick.emulator
      ? `from this directory the CLI uses ${pick.emulator.base_url}${pick.reason === 'data dir' ? "\n(its data dir is this directory's)" : ''}`
      : 'elsewhere the CLI asks which one: pass --base-url URL (or a profile),\nor run it from the directory of the data dir';
    io.stderr.write(
      `note: ${others.length + 1} emulators are running now:\n${describeEmulators(listEmulators(io.env))}\n${which}\n`,
    );
  }

  await stopped;
  clearEmulatorState(io.env, state);
  await emu.stop();
  if (!opts.json) io.stderr.write('emulator stopped\n');
}

/** `ok`, the connection error (`ECONNREFUSED`), or the odd answer as JSON. */
function healthWord(h: unknown): string {
  if (h && typeof h === 'object') {
    if ((h as { ok?: unknown }).ok === true) return 'ok';
    if (typeof (h as { error?: unknown }).error === 'string') return (h as { error: string }).error;
  }
  return JSON.stringify(h);
}

async function status(cli: CliContext): Promise<void> {
  const pick = pickEmulator(cli.io.env, cli.io.cwd);
  if (pick.running.length === 0) {
    throw new CliError(
      `no local emulator is running\n  start one:  ${cliName(cli.io)} emulator start\n  (records: ${emulatorsDir(cli.io.env)})`,
      ExitCode.network,
    );
  }
  const { AvatarClient } = await import('../../client/client.js');
  const { health: healthOp } = await import('../../contract/operations/operator.js');
  const rows = await Promise.all(
    pick.running.map(async (s) => {
      const c = new AvatarClient({ baseUrl: s.base_url });
      let health: unknown = null;
      try {
        const r = await c.raw('GET', healthOp.path);
        health = r.status === 200 ? r.body : { status: r.status };
      } catch (e) {
        health = { error: (e as NodeJS.ErrnoException).code ?? String(e) };
      } finally {
        await c.close();
      }
      return { ...s, used_here: s === pick.emulator, health };
    }),
  );
  cli.print(
    { data: rows },
    () =>
      renderTable(
        // Health right after the address: at 80 columns the last columns are left out.
        rows.map((r) => ({
          '': r.used_here ? '*' : '',
          base_url: r.base_url,
          health: healthWord(r.health),
          data_dir: r.data_dir ?? '(in memory)',
          pid: r.pid,
          started: formatTime(r.started_at),
        })),
        undefined,
        cli.io.stdout.isTTY ? cli.io.stdout.columns : undefined,
      ) +
      (pick.emulator
        ? `\n* the CLI uses this one from here (${pick.reason === 'data dir' ? "this directory's data dir" : 'the only one running'})`
        : "\nnone is this directory's: pick one with --base-url URL,\nor a profile (avatar config set)"),
  );
}

const statusCommand = defineCommand({
  name: 'status',
  summary:
    'list the running local emulators, check their health, and mark the one the CLI uses from here',
  run: ({ cli }) => status(cli),
});

export const emulatorCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const group = program
      .command('emulator')
      .description('run the local, offline emulator of the whole service');
    const startCmd = group
      .command('start')
      .description(
        'start the control plane (and its edge boxes) on this machine; prints where it listens and the keys',
      );
    for (const f of emulatorFlags)
      if (f.repeatable) startCmd.option(f.flags, f.description, collect);
      else startCmd.option(f.flags, f.description, f.default as string | boolean | undefined);
    startCmd.option(
      '--json',
      'print one JSON line {base_url, workspace_id, org_id, secret_key, dashboard_key, operator_token} when ready',
    );
    startCmd.action(async () =>
      start(cli, { ...startCmd.opts(), json: startCmd.opts().json || cli.globals().json }),
    );

    registerExec(group, cli, startOptions);
    addCommand(group, clockCommand, cli);
    for (const c of stateCommands) addCommand(group, c, cli);
    registerLogs(group, cli);
    addCommand(group, faultsCommand, cli);
    registerScripts(group, cli);

    addCommand(group, statusCommand, cli);
  },
};
