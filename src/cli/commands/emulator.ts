import type { Command } from 'commander';
import { clearEmulatorState, emulatorStatePath, readEmulatorState, writeEmulatorState } from '../config.js';
import type { CliContext, CommandModule } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderRecord } from '../output.js';
import { emulatorFlags } from './emulator-flags.js';

function relaxations(opts: Record<string, unknown>): string[] {
  const list: string[] = [];
  if (opts.allowInsecureUrls) list.push('--allow-insecure-urls: plain-http and loopback hook/webhook URLs accepted');
  if (opts.allowRemoteMedia) list.push('--allow-remote-media: speak fetches media URLs from any host, not only loopback');
  return list;
}

async function start(cli: CliContext, opts: Record<string, unknown>): Promise<void> {
  // Lazy: the server, SQLite and ffmpeg helpers load only for this command.
  const { startEmulator, EmulatorStartError } = await import('../../emulator/start.js');
  const options: Record<string, unknown> = {};
  for (const f of emulatorFlags) {
    const key = f.flags.replace(/^--(no-)?/, '').split(' ')[0]!.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const v = opts[key];
    if (v === undefined) continue;
    try {
      options[f.option] = f.parse && typeof v === 'string' ? f.parse(v) : v;
    } catch (e) {
      throw new CliError((e as Error).message, ExitCode.usage);
    }
  }
  let emu;
  try {
    emu = await startEmulator(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') {
      throw new CliError(`port ${String(options.port)} is in use: pass --port 0 for any free port, or stop the other emulator`, ExitCode.usage);
    }
    // A data dir that cannot be used or is held by another emulator, a bad --host: the user's to fix.
    if (e instanceof EmulatorStartError) throw new CliError(e.message, ExitCode.usage);
    throw e;
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
  const state = {
    pid: process.pid,
    base_url: emu.baseUrl,
    workspace_id: emu.keys.workspaceId,
    org_id: emu.keys.orgId,
    secret_key: emu.keys.secretKey,
    dashboard_key: emu.keys.dashboardKey,
    data_dir: dataDir,
    started_at: Math.floor(Date.now() / 1000),
  };
  writeEmulatorState(io.env, state);

  if (opts.json) {
    io.stdout.write(
      JSON.stringify({
        base_url: emu.baseUrl,
        workspace_id: emu.keys.workspaceId,
        org_id: emu.keys.orgId,
        secret_key: emu.keys.secretKey,
        dashboard_key: emu.keys.dashboardKey,
      }) + '\n',
    );
  } else {
    const lines = [
      `avatar emulator listening on ${emu.baseUrl}`,
      `  store          ${dataDir ? `${dataDir} (SQLite, WAL)` : 'in memory'}`,
      `  workspace_id   ${emu.keys.workspaceId}`,
      `  org_id         ${emu.keys.orgId}`,
      `  secret key     ${emu.keys.secretKey}   (workspace-bound, scopes *)`,
      `  dashboard key  ${emu.keys.dashboardKey}   (not workspace-bound, scopes *)`,
      ...relaxations(emu.ctx.options).map((r) => `  relaxed        ${r}`),
      '',
      `Try: curl ${emu.baseUrl}/api/gallery   or   avatar gallery list`,
      'The avatar CLI finds this emulator without flags. Ctrl-C stops it.',
    ];
    io.stdout.write(lines.join('\n') + '\n');
  }

  await stopped;
  clearEmulatorState(io.env, process.pid);
  await emu.stop();
  if (!opts.json) io.stderr.write('emulator stopped\n');
}

export const emulatorCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const group = program.command('emulator').description('run the local, offline emulator of the whole service');
    const startCmd = group
      .command('start')
      .description('start the control plane (and its edge boxes) on this machine; prints where it listens and the keys');
    for (const f of emulatorFlags) startCmd.option(f.flags, f.description, f.default as string | boolean | undefined);
    startCmd.option('--json', 'print one JSON line {base_url, workspace_id, org_id, secret_key, dashboard_key} when ready');
    startCmd.action(async () => start(cli, { ...startCmd.opts(), json: startCmd.opts().json || cli.globals().json }));

    group
      .command('status')
      .description('show the running local emulator and check its health')
      .action(async () => {
        const s = readEmulatorState(cli.io.env);
        if (!s) throw new CliError(`no local emulator is running (state file ${emulatorStatePath(cli.io.env)})`, ExitCode.network);
        const { AvatarClient } = await import('../../client/client.js');
        const c = new AvatarClient({ baseUrl: s.base_url });
        try {
          const health = await c.raw('GET', '/_emulator/health');
          cli.print({ ...s, health: health.body }, (b) => renderRecord(b as Record<string, unknown>));
        } finally {
          await c.close();
        }
      });
  },
};
