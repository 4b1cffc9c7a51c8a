import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, ExitCode, type ExitCodeValue } from '../exit-codes.js';
import { emulatorFlags } from './emulator-flags.js';
import { collect } from './emulator-flag.js';

/**
 * `avatar emulator exec [flags] -- CMD ARGS...` (issue 18 item 1; docs/testing.md): start an
 * emulator (in memory unless --data, on a free port unless --port), run CMD with the
 * emulator's URL and keys in its environment, stop the emulator, exit with CMD's code.
 * Firebase's `emulators:exec` is the model.
 */

/** The variables CMD gets (documented in docs/testing.md). */
export function execEnvironment(emu: {
  baseUrl: string;
  keys: { secretKey: string; dashboardKey: string; workspaceId: string; orgId: string };
  operatorToken?: string;
}): Record<string, string> {
  return {
    AVATAR_BASE_URL: emu.baseUrl,
    AVATAR_API_KEY: emu.keys.secretKey,
    AVATAR_DASHBOARD_KEY: emu.keys.dashboardKey,
    AVATAR_WORKSPACE_ID: emu.keys.workspaceId,
    AVATAR_ORG_ID: emu.keys.orgId,
    // The names the official OpenAI clients read: the compat-a family answers them.
    OPENAI_BASE_URL: `${emu.baseUrl}/compat-a/v1`,
    OPENAI_API_KEY: emu.keys.secretKey,
    ...(emu.operatorToken ? { AVATAR_OPERATOR_TOKEN: emu.operatorToken } : {}),
  };
}

/**
 * The watchdog CMD runs under (`node -e WATCHDOG -- CMD ARGS...`). It holds fd 3, a pipe
 * from exec: when exec goes, even by SIGKILL, the pipe closes, and the watchdog sends CMD
 * SIGTERM, then SIGKILL after 5 s if CMD is still there, and exits once CMD has. SIGTERM to
 * the watchdog is passed on to CMD; SIGINT is left to CMD. How CMD ended goes back on the
 * pipe as one JSON line: `{ code, signal }`, or `{ error }` when it could not start.
 *
 * Without a terminal (CI, a pipe), CMD runs in a process group of its own and the signals go
 * to the whole group, so the processes CMD started end with it. On a terminal, CMD stays in
 * the terminal's foreground group (Ctrl-C reaches it and it can read the terminal, as
 * without exec), and the signals go to CMD alone.
 */
const WATCHDOG = `
const { spawn } = require('node:child_process');
const net = require('node:net');
const tty = require('node:tty');
const [cmd, ...args] = process.argv.slice(1);
const life = new net.Socket({ fd: 3, readable: true, writable: true });
const group = !tty.isatty(0) && !tty.isatty(1) && !tty.isatty(2);
let ended = false;
let orphaned = false;
const stop = (sig) => {
  if (ended) return;
  try {
    if (group) process.kill(-child.pid, sig);
    else child.kill(sig);
  } catch {
    try { child.kill(sig); } catch {}
  }
};
const report = (m) => {
  ended = true;
  if (orphaned) process.exit(0);
  life.end(JSON.stringify(m) + '\\n', () => process.exit(0));
};
const child = spawn(cmd, args, { stdio: 'inherit', detached: group });
child.on('error', (e) => report({ error: e.code === 'ENOENT' ? 'ENOENT' : e.message }));
child.on('exit', (code, signal) => report({ code, signal }));
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGHUP', () => stop('SIGHUP'));
process.on('SIGINT', () => { if (group) stop('SIGINT'); });
life.on('error', () => {});
life.on('data', () => {});
life.on('close', () => {
  orphaned = true;
  if (ended) process.exit(0);
  stop('SIGTERM');
  setTimeout(() => stop('SIGKILL'), 5000).unref();
});
`;

/** The exit code of a command that ended by a signal: 128 + its number, as a shell says. */
const signalCode = (signal: NodeJS.Signals): number => 128 + (constants.signals[signal] ?? 0);

export async function execCommand(
  cli: CliContext,
  argv: string[],
  opts: Record<string, unknown>,
  startOptions: (o: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  if (argv.length === 0)
    throw new CliError(
      'name the command to run after --: avatar emulator exec -- npm test',
      ExitCode.usage,
    );
  const options = startOptions(opts);
  // In memory unless a data dir is named; any free port unless one is named.
  options.inMemory = opts.data === undefined;
  options.port ??= 0;
  const { startEmulator, EmulatorStartError } = await import('../../emulator/start.js');
  let emu;
  try {
    emu = await startEmulator(options);
  } catch (e) {
    if (e instanceof EmulatorStartError) throw new CliError(e.message, ExitCode.usage);
    throw new CliError(
      `the emulator could not start (nothing is left running): ${(e as Error).message}`,
      ExitCode.internal,
    );
  }
  const { io } = cli;
  // The per-start operator token, where this version has one (the security work adds it).
  const operatorToken =
    (emu as { operatorToken?: string }).operatorToken ??
    (emu.ctx as { operatorToken?: string }).operatorToken;
  const env = execEnvironment({ ...emu, operatorToken });
  io.stderr.write(
    `emulator on ${emu.baseUrl} (${options.inMemory ? 'in memory' : String(options.dataDir)}); running: ${argv.join(' ')}\n`,
  );

  const own = io.stdout === process.stdout && io.stderr === process.stderr;
  let child: ChildProcess;
  const killChild = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  // A crash of this process (the emulator's side) must not leave CMD running: CMD runs under
  // a watchdog that ends it when this process goes, even by SIGKILL (see WATCHDOG).
  process.on('exit', killChild);
  const code = await new Promise<number>((resolveCode) => {
    child = spawn(process.execPath, ['-e', WATCHDOG, '--', ...argv], {
      env: { ...io.env, ...env } as NodeJS.ProcessEnv,
      cwd: io.cwd,
      stdio: own ? ['inherit', 'inherit', 'inherit', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    if (!own) {
      child.stdout!.on('data', (d: Buffer) => io.stdout.write(d));
      child.stderr!.on('data', (d: Buffer) => io.stderr.write(d));
    }
    // The watchdog reports how CMD ended, one JSON line on the lifeline.
    let report = '';
    child.stdio[3]!.on('data', (d: Buffer) => (report += d.toString()));
    child.stdio[3]!.on('error', () => {});
    // Ctrl-C reaches CMD too when it shares the terminal; SIGTERM to us is passed on.
    const off = cli.onInterrupt(killChild);
    child.on('error', (e: NodeJS.ErrnoException) => {
      off();
      io.stderr.write(`error: cannot start the command's watchdog: ${e.message}\n`);
      resolveCode(127);
    });
    child.on('close', (exit, signal) => {
      off();
      let ended: { code?: number | null; signal?: NodeJS.Signals | null; error?: string } = {};
      try {
        ended = JSON.parse(report.split('\n')[0]!) as typeof ended;
      } catch {
        // no report: the watchdog itself ended; its own status stands for CMD's
        ended = { code: exit, signal };
      }
      if (ended.error !== undefined) {
        io.stderr.write(
          `error: cannot run ${argv[0]}: ${ended.error === 'ENOENT' ? 'command not found' : ended.error}\n`,
        );
        resolveCode(127);
        return;
      }
      resolveCode(ended.code ?? (ended.signal ? signalCode(ended.signal) : 1));
    });
  });
  process.off('exit', killChild);
  if (typeof opts.log === 'string') {
    // The operator log as JSON lines, for a CI job to keep when the command failed.
    const { operatorLog } = await import('../../emulator/operator/log.js');
    const { writeFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    writeFileSync(
      resolve(io.cwd, opts.log),
      operatorLog(emu.ctx)
        .since(0)
        .map((e) => JSON.stringify(e) + '\n')
        .join(''),
    );
  }
  await emu.stop();
  if (code !== 0)
    throw new CliError(`${argv[0]} exited ${code}`, code as ExitCodeValue, undefined, true);
}

export function registerExec(
  group: Command,
  cli: CliContext,
  startOptions: (o: Record<string, unknown>) => Record<string, unknown>,
): void {
  const cmd = group
    .command('exec')
    .description(
      "start an emulator (in memory, free port), run a command with its URL and keys in the environment, stop it; exits with the command's code",
    )
    .argument('<command...>', 'the command and its arguments, after --')
    .usage('[flags] -- <command...>');
  for (const f of emulatorFlags) {
    if (f.option === 'inMemory') continue;
    if (f.repeatable) {
      cmd.option(f.flags, f.description, collect);
      continue;
    }
    cmd.option(
      f.flags,
      f.description,
      f.option === 'port' || f.option === 'dataDir'
        ? undefined
        : (f.default as string | boolean | undefined),
    );
  }
  cmd.option(
    '--log <file>',
    "write the emulator's operator log (JSON lines) to FILE when the command ends",
  );
  cmd.action(async (argv: string[]) => execCommand(cli, argv, cmd.opts(), startOptions));
}
