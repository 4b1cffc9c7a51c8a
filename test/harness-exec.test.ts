import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive, waitUntil } from './helpers/wait.js';

/**
 * `avatar emulator exec -- CMD` (issue 18 item 1) on the built binary: CMD gets the
 * emulator's URL and keys, the exit code is CMD's, and nothing is left running afterwards,
 * whichever side ends first.
 */
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'avatar.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exec(
  args: string[],
  onStdout?: (text: string, kill: (s: NodeJS.Signals) => void) => void,
): Promise<Ran> {
  const home = mkdtempSync(join(tmpdir(), 'avatar-exec-test-'));
  const child = spawn(process.execPath, [BIN, 'emulator', 'exec', ...args], {
    env: {
      PATH: process.env.PATH!,
      HOME: home,
      AVATAR_STATE_DIR: join(home, 'state'),
      AVATAR_CONFIG_DIR: join(home, 'config'),
    },
    cwd: ROOT,
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
    onStdout?.(stdout, (s) => child.kill(s));
  });
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const answers = (url: string) =>
  fetch(`${url}/_emulator/health`).then(
    () => true,
    () => false,
  );

const PRINT_ENV = `
const names = ['AVATAR_BASE_URL','AVATAR_API_KEY','AVATAR_DASHBOARD_KEY','AVATAR_WORKSPACE_ID','AVATAR_ORG_ID','OPENAI_BASE_URL','OPENAI_API_KEY'];
const env = Object.fromEntries(names.map((n) => [n, process.env[n]]));
fetch(env.AVATAR_BASE_URL + '/api/v1/workspaces/' + env.AVATAR_WORKSPACE_ID, { headers: { authorization: 'Bearer ' + env.AVATAR_API_KEY } })
  .then((r) => { console.log(JSON.stringify({ env, status: r.status })); process.exit(7); });
`;

describe('avatar emulator exec', () => {
  it('runs the command with the URL and keys in its environment, then stops the emulator and exits with its code', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'avatar-exec-log-')), 'emulator.log');
    const r = await exec(['--log', logFile, '--', process.execPath, '-e', PRINT_ENV]);
    expect(r.code).toBe(7);
    const { env, status } = JSON.parse(r.stdout);
    expect(status).toBe(200);
    expect(env.AVATAR_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(env.OPENAI_BASE_URL).toBe(`${env.AVATAR_BASE_URL}/compat-a/v1`);
    expect(env.OPENAI_API_KEY).toBe(env.AVATAR_API_KEY);
    for (const v of Object.values(env)) expect(v).toMatch(/\S/);
    expect(r.stderr).toContain(`emulator on ${env.AVATAR_BASE_URL} (in memory)`);
    expect(await answers(env.AVATAR_BASE_URL)).toBe(false);
    // --log kept the operator log: the command's request is in it.
    const logged = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(logged).toContainEqual(
      expect.objectContaining({
        kind: 'request',
        method: 'GET',
        path: `/api/v1/workspaces/${env.AVATAR_WORKSPACE_ID}`,
        status: 200,
      }),
    );
  }, 60_000);

  it('exits 127 for a command that does not exist, 2 without a command', async () => {
    const missing = await exec(['--', 'no-such-command-anywhere']);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('cannot run no-such-command-anywhere: command not found');
    const none = await exec([]);
    expect(none.code).toBe(2);
  }, 60_000);

  // Commands (and their children) these tests start never outlive the file, even when the
  // watchdog they test regresses: whatever is still running is killed here.
  const started = new Set<number>();
  afterAll(() => {
    for (const pid of started) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  });

  /** exec runs a command that never ends; `signal` goes to exec once the command has started. */
  const signalExec = async (signal: NodeJS.Signals) => {
    let seen: { pid: number; url: string } | undefined;
    const r = await exec(
      [
        '--',
        process.execPath,
        '-e',
        'console.log(JSON.stringify({ pid: process.pid, url: process.env.AVATAR_BASE_URL })); setInterval(() => {}, 1000)',
      ],
      (text, kill) => {
        if (!seen && text.includes('\n')) {
          seen = JSON.parse(text.split('\n')[0]!);
          started.add(seen!.pid);
          kill(signal);
        }
      },
    );
    expect(seen).toBeDefined();
    return { r, ...seen! };
  };

  it('SIGTERM (or Ctrl-C) ends the command and the emulator: nothing is left running', async () => {
    const { r, pid, url } = await signalExec('SIGTERM');
    expect(r.code).toBe(128 + 15); // the command ended by SIGTERM, as a shell reports it
    expect(processAlive(pid)).toBe(false);
    expect(await answers(url)).toBe(false);
  }, 60_000);

  it('kill -9 of exec leaves nothing running: its watchdog ends the command', async () => {
    const { r, pid, url } = await signalExec('SIGKILL');
    expect(r.code).toBe(null); // exec itself died by the signal
    // The emulator lived in exec's process; the command is ended by the watchdog (SIGTERM
    // as soon as exec's pipe closes), well within the bound.
    await waitUntil(() => !processAlive(pid), 15_000);
    expect(await answers(url)).toBe(false);
  }, 60_000);

  it('kill -9 of exec also ends the processes the command started (no terminal: its own process group)', async () => {
    let seen: { pid: number; grandchild: number } | undefined;
    const r = await exec(
      [
        '--',
        process.execPath,
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
         console.log(JSON.stringify({ pid: process.pid, grandchild: c.pid })); setInterval(() => {}, 1000)`,
      ],
      (text, kill) => {
        if (!seen && text.includes('\n')) {
          seen = JSON.parse(text.split('\n')[0]!);
          started.add(seen!.pid).add(seen!.grandchild);
          kill('SIGKILL');
        }
      },
    );
    expect(r.code).toBe(null);
    await waitUntil(() => !processAlive(seen!.pid) && !processAlive(seen!.grandchild), 15_000);
  }, 60_000);

  it('a test suite written with the official openai client and vitest passes under exec, seeded from a seed file', async () => {
    const r = await exec([
      '--seed',
      join(ROOT, 'test', 'harness-suite', 'seed.yaml'),
      '--',
      process.execPath,
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      join(ROOT, 'test', 'harness-suite', 'vitest.config.mjs'),
    ]);
    expect(r.stdout + r.stderr).toMatch(/Tests\s+5 passed \(5\)/);
    expect(r.code).toBe(0);
  }, 120_000);

  it('a bad seed fails the start naming file, line and field, and the command never runs', async () => {
    const r = await exec([
      '--seed',
      join(ROOT, 'test', 'harness-suite', 'vitest.config.mjs'),
      '--',
      process.execPath,
      '-e',
      'console.log("ran")',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/vitest\.config\.mjs:\d+: /);
  }, 60_000);
});
