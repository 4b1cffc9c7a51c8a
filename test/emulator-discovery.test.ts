import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';

/**
 * Issue 7 items 3 and 4 on the built binary: one discovery record per running emulator,
 * the CLI's pick (this directory's data dir, else the only one, else it asks), and start
 * flags refused before anything starts. Private state/config dirs: never the user's.
 */
const BIN = join(import.meta.dirname, '..', 'bin', 'avatar.js');
const children = new Set<ChildProcessWithoutNullStreams>();
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});
const tmp = () => mkdtempSync(join(tmpdir(), 'avatar-discovery-'));

function start(args: string[], env: Record<string, string>, cwd: string) {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', ...args], {
    env: { PATH: process.env.PATH!, ...env },
    cwd,
    stdio: 'pipe',
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((r) =>
    child.on('exit', (code) => (children.delete(child), r(code))),
  );
  const ready = new Promise<{ base_url: string; secret_key: string; workspace_id: string }>(
    (resolve, reject) => {
      child.stdout.on('data', () => {
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    },
  );
  return { child, ready, exit, stderr: () => err };
}

describe('two emulators at once (issue 7 item 3)', () => {
  it('each has its record; the CLI picks by data dir, asks when it cannot tell, and keeps the survivor', async () => {
    const home = tmp();
    const env = {
      HOME: home,
      AVATAR_STATE_DIR: join(home, 'state'),
      AVATAR_CONFIG_DIR: join(home, 'config'),
    };
    const projA = join(home, 'a');
    const projB = join(home, 'b');
    const elsewhere = join(home, 'elsewhere');
    for (const d of [projA, projB, elsewhere]) mkdirSync(d);
    const a = start(['--json'], env, projA); // data dir a/.avatar-emulator
    const infoA = await a.ready;
    const b = start(['--json'], env, projB);
    const infoB = await b.ready;
    expect(infoA.base_url).not.toBe(infoB.base_url);
    expect(readdirSync(join(env.AVATAR_STATE_DIR, 'emulators'))).toHaveLength(2);
    // The second start says there are two and which one the CLI uses from its directory.
    await expect.poll(() => b.stderr()).toMatch(/2 emulators are running now/);
    expect(b.stderr()).toContain(
      `the CLI uses ${infoB.base_url}\n(its data dir is this directory's)`,
    );
    expect(
      b
        .stderr()
        .split('\n')
        .filter((l) => l.length > 80),
    ).toEqual([]);

    // From each project directory, that project's emulator (and its key and workspace).
    const fromA = await cli(['--json', 'workspaces', 'list'], env, projA);
    expect(fromA.stderr).toBe('');
    expect(fromA.code).toBe(0);
    expect(fromA.json().data[0].id).toBe(infoA.workspace_id);
    const fromB = await cli(['--json', 'config', 'show'], env, projB);
    expect(fromB.json().base_url).toBe(infoB.base_url);

    // Elsewhere: no guess; it names both and how to pick.
    const lost = await cli(['workspaces', 'list'], env, elsewhere);
    expect(lost.code).toBe(2);
    expect(lost.stderr).toContain('2 local emulators are running');
    expect(lost.stderr).toContain(infoA.base_url);
    expect(lost.stderr).toContain(infoB.base_url);
    expect(lost.stderr).toMatch(/--base-url URL/);
    // --base-url of one of them finds its keys.
    const picked = await cli(
      ['--json', '--base-url', infoB.base_url, 'workspaces', 'list'],
      env,
      elsewhere,
    );
    expect(picked.json().data[0].id).toBe(infoB.workspace_id);

    // status lists both and marks the one used from here.
    const status = await cli(['--json', 'emulator', 'status'], env, projA);
    expect(status.code).toBe(0);
    const rows = status.json().data as {
      base_url: string;
      used_here: boolean;
      health: { ok?: boolean };
    }[];
    expect(rows.map((r) => r.base_url).sort()).toEqual([infoA.base_url, infoB.base_url].sort());
    expect(rows.find((r) => r.used_here)?.base_url).toBe(infoA.base_url);
    expect(rows.every((r) => r.health.ok === true)).toBe(true);

    // Stopping B leaves A found from anywhere (the only one), its record intact.
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);
    const after = await cli(['--json', 'workspaces', 'list'], env, elsewhere);
    expect(after.code).toBe(0);
    expect(after.json().data[0].id).toBe(infoA.workspace_id);

    // kill -9 leaves a record behind; the next reader prunes it.
    a.child.kill('SIGKILL');
    await a.exit;
    const none = await cli(['workspaces', 'list'], env, projA);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no service to talk to/);
    expect(readdirSync(join(env.AVATAR_STATE_DIR, 'emulators'))).toHaveLength(0);
  });
});

describe('the start banner at 80 columns', () => {
  it('every line fits, and `npm link` is said where it works (the checkout, not the current directory)', async () => {
    const home = tmp();
    const s = spawn(process.execPath, [BIN, 'emulator', 'start', '--port', '0', '--in-memory'], {
      env: { PATH: '/usr/bin:/bin', HOME: home, AVATAR_STATE_DIR: join(home, 'state') },
      cwd: home,
      stdio: 'pipe',
    });
    children.add(s);
    let out = '';
    s.stdout.on('data', (d) => (out += d));
    await expect.poll(() => out, { timeout: 20_000 }).toMatch(/Ctrl-C stops it/);
    const exited = new Promise((r) => s.on('exit', r));
    s.kill('SIGTERM');
    await exited;
    children.delete(s);
    expect(out.split('\n').filter((l) => l.length > 80)).toEqual([]);
    const checkout = join(import.meta.dirname, '..');
    expect(out).toContain(`node ${BIN} gallery list`);
    expect(out).toContain(`npm link\` once in ${checkout}`);
  });
});

describe('start flags are checked before anything starts (issue 7 item 4)', () => {
  const refuse = async (args: string[]) => {
    const s = start(
      ['--in-memory', ...args],
      { HOME: tmp(), AVATAR_STATE_DIR: join(tmp(), 'state') },
      tmp(),
    );
    s.ready.catch(() => undefined);
    const code = await s.exit; // the process ends by itself: nothing left serving
    return { code, err: s.stderr() };
  };

  it.each([
    [['--seats', '20000'], /^error: --seats must be an integer from 0 to 10000 \(got 20000\)\n$/],
    [['--boxes', '-1'], /^error: --boxes must be an integer from 0 to 64 \(got -1\)/],
    [['--session-cap-s', '10'], /^error: --session-cap-s must be an integer from 60 to 3600/],
    [['--box-capabilities', '[{"seats":20000}]'], /^error: --box-capabilities: 0\.seats: /],
    [
      ['--box-capabilities', '[{"protocol":[1]}]'],
      /^error: --box-capabilities: 0: Unrecognized key/,
    ],
    [
      ['--plan-limits', '{"free":{"concurrency":"many"}}'],
      /^error: --plan-limits: free\.concurrency: /,
    ],
    [['--plan-limits', '{nope'], /^error: --plan-limits is not valid JSON/],
  ])('%j: usage error naming the flag and its range, exit 2', async (args, message) => {
    const r = await refuse(args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.err).not.toMatch(/unexpected failure|\n\s+at /);
  });

  it('the largest seat count the control plane accepts starts', async () => {
    const s = start(
      ['--in-memory', '--json', '--seats', '10000'],
      { HOME: tmp(), AVATAR_STATE_DIR: join(tmp(), 'state') },
      tmp(),
    );
    const info = await s.ready;
    const boxes = await (
      await fetch(`${info.base_url}/_emulator/boxes`, {
        headers: { authorization: `Bearer ${info.secret_key}` },
      })
    ).json();
    expect(JSON.stringify(boxes)).toContain('10000');
    s.child.kill('SIGTERM');
    expect(await s.exit).toBe(0);
  });
});

describe('startEmulator() checks its options too', () => {
  it('rejects an out-of-range option before opening a socket or a store', async () => {
    const { startEmulator, EmulatorStartError } = await import('../src/emulator/start.js');
    const data = join(tmp(), 'never');
    const p = startEmulator({ port: 0, dataDir: data, seats: 20_000 });
    await expect(p).rejects.toBeInstanceOf(EmulatorStartError);
    await expect(p).rejects.toThrow(/seats must be an integer from 0 to 10000 \(got 20000\)/);
    expect(() => readdirSync(data)).toThrow(); // the data dir was never created
  });
});
