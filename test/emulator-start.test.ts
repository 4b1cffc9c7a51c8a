import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bindNotes } from '../src/cli/emulator/emulator.js';

/** `avatar emulator start` on the built binary (npm test builds first). */
const BIN = join(import.meta.dirname, '..', 'bin', 'avatar.js');
const children = new Set<ChildProcessWithoutNullStreams>();

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  first: string;
  /** Everything printed on stdout so far. */
  output(): string;
  exit: Promise<number | null>;
}

function startBin(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [BIN, 'emulator', 'start', ...args], {
    env: { PATH: process.env.PATH!, ...env },
    stdio: 'pipe',
  });
  children.add(child);
  const exit = new Promise<number | null>((r) =>
    child.on('exit', (code) => (children.delete(child), r(code))),
  );
  return new Promise((resolve, reject) => {
    let err = '';
    let out = '';
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      const hadLine = out.includes('\n');
      out += d;
      if (!hadLine && out.includes('\n'))
        resolve({ child, first: out.split('\n')[0]!, output: () => out, exit });
    });
    child.once('exit', (code) =>
      reject(new Error(`emulator exited ${code} before printing: ${err}`)),
    );
  });
}

const tmp = () => mkdtempSync(join(tmpdir(), 'avatar-emu-test-'));

describe('avatar emulator start', () => {
  it('--json prints one line with the keys, serves, reuses keys on the same data dir, stops cleanly on SIGTERM', async () => {
    const data = tmp();
    const state = tmp();
    const env = { AVATAR_STATE_DIR: state, HOME: state };
    const a = await startBin(['--port', '0', '--data', data, '--json'], env);
    const info = JSON.parse(a.first);
    expect(Object.keys(info).sort()).toEqual([
      'base_url',
      'dashboard_key',
      'operator_token',
      'org_id',
      'secret_key',
      'workspace_id',
    ]);
    expect(info.operator_token).toMatch(/^op_[0-9a-f]{48}$/);
    // The operator routes take the printed operator token (docs/security.md).
    expect((await fetch(`${info.base_url}/_emulator/boxes`)).status).toBe(401);
    expect(
      (
        await fetch(`${info.base_url}/_emulator/boxes`, {
          headers: { authorization: `Bearer ${info.operator_token}` },
        })
      ).status,
    ).toBe(200);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${info.base_url}/_emulator/health`)).status).toBe(200);
    expect((await fetch(`${info.base_url}/api/gallery`)).status).toBe(200);
    // The secret key is workspace-bound with *, the dashboard key is not bound.
    const bound = await (
      await fetch(`${info.base_url}/api/v1/tokens`, {
        headers: { authorization: `Bearer ${info.secret_key}` },
      })
    ).json();
    const row = bound.data.find((t: any) => t.token_prefix === info.secret_key.slice(0, 8));
    expect(row).toMatchObject({ workspace_id: info.workspace_id, scopes: ['*'] });
    const r = await fetch(`${info.base_url}/api/v1/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.dashboard_key}` },
      body: JSON.stringify({ name: 'made-before-restart' }),
    });
    expect(r.status).toBe(201);
    expect(readdirSync(join(state, 'emulators'))).toHaveLength(1);

    a.child.kill('SIGTERM');
    expect(await a.exit).toBe(0);
    expect(readdirSync(join(state, 'emulators'))).toHaveLength(0);

    const b = await startBin(['--port', '0', '--data', data, '--json'], env);
    const again = JSON.parse(b.first);
    expect(again.secret_key).toBe(info.secret_key);
    expect(again.dashboard_key).toBe(info.dashboard_key);
    expect(again.workspace_id).toBe(info.workspace_id);
    // An emulator.json from before the restart keeps working (docs/security.md).
    expect(again.operator_token).toBe(info.operator_token);
    b.child.kill('SIGINT');
    expect(await b.exit).toBe(0);
  });

  it('keeps every acknowledged write across kill -9', async () => {
    const data = tmp();
    const env = { AVATAR_STATE_DIR: tmp() };
    const a = await startBin(['--port', '0', '--data', data, '--json'], env);
    const info = JSON.parse(a.first);
    const names = Array.from({ length: 20 }, (_, i) => `key-${i}`);
    for (const name of names) {
      const r = await fetch(`${info.base_url}/api/v1/tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${info.secret_key}` },
        body: JSON.stringify({ name }),
      });
      expect(r.status).toBe(201);
    }
    a.child.kill('SIGKILL');
    await a.exit;
    const b = await startBin(['--port', '0', '--data', data, '--json'], env);
    const info2 = JSON.parse(b.first);
    const list = await (
      await fetch(`${info2.base_url}/api/v1/tokens`, {
        headers: { authorization: `Bearer ${info2.secret_key}` },
      })
    ).json();
    expect(list.data.map((t: any) => t.name)).toEqual(expect.arrayContaining(names));
    b.child.kill('SIGTERM');
    await b.exit;
  });

  it('prints the base URL and both keys for humans; --in-memory starts fresh each time', async () => {
    const env = { AVATAR_STATE_DIR: tmp() };
    const a = await startBin(['--port', '0', '--in-memory'], env);
    expect(a.first).toMatch(/^avatar emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
    a.child.kill('SIGTERM');
    await a.exit;
    const text = a.output();
    // Keys stand whole on their own lines, ready to copy.
    expect(text).toMatch(/secret key .*\n {4}avatar_[0-9a-f]{8}\.[0-9a-f]{56}\n/);
    expect(text).toMatch(/dashboard key .*\n {4}avatar_/);
    expect(text).toContain('in memory');

    const one = JSON.parse((await startBinJson(env)).first);
    const two = JSON.parse((await startBinJson(env)).first);
    expect(one.secret_key).not.toBe(two.secret_key);
  });

  it('refuses a busy port with a clear message and exit code 2', async () => {
    const env = { AVATAR_STATE_DIR: tmp() };
    const a = await startBin(['--port', '0', '--in-memory', '--json'], env);
    const port = new URL(JSON.parse(a.first).base_url).port;
    const child = spawn(
      process.execPath,
      [BIN, 'emulator', 'start', '--port', port, '--in-memory'],
      { env: { PATH: process.env.PATH!, ...env } },
    );
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/port \d+ is in use/);
    a.child.kill('SIGTERM');
    await a.exit;
  });
});

describe('avatar emulator start refuses what it cannot use (exit 2, one clear line)', () => {
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; err: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'emulator', 'start', ...args], {
        env: { PATH: process.env.PATH!, ...env },
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => resolve({ code, err }));
    });

  it('a --data path that is not a directory', async () => {
    const file = join(tmp(), 'a-file');
    writeFileSync(file, 'x');
    const r = await run(['--port', '0', '--data', file], { AVATAR_STATE_DIR: tmp() });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: cannot use data dir .*a-file/);
    expect(r.err).not.toMatch(/unexpected failure|\n\s+at /);
  });

  it('an upstream URL that is not http(s): the flag named, before anything starts', async () => {
    for (const flag of ['--tts-url', '--asr-url', '--llm-url']) {
      const r = await run(['--port', '0', '--in-memory', flag, 'notaurl'], {
        AVATAR_STATE_DIR: tmp(),
      });
      expect(r.code, r.err).toBe(2);
      expect(r.err).toContain(`${flag} must be an http(s) URL, got "notaurl"`);
      expect(r.err).not.toMatch(/edge box|could not start/);
    }
  });

  it('a data dir another running emulator holds; the first keeps running', async () => {
    const data = tmp();
    const env = { AVATAR_STATE_DIR: tmp() };
    const a = await startBin(['--port', '0', '--data', data, '--json'], env);
    const info = JSON.parse(a.first);
    const r = await run(['--port', '0', '--data', data], env);
    expect(r.code).toBe(2);
    // Wrapped at word boundaries within 80 columns (the CLI's errors fit a terminal).
    expect(r.err.replace(/\s+/g, ' ')).toMatch(
      /^error: data dir .* is in use by another emulator \(pid \d+\)/,
    );
    expect(r.err.split('\n').filter((l) => l.length > 80)).toEqual([]);
    expect((await fetch(`${info.base_url}/_emulator/health`)).status).toBe(200);
    a.child.kill('SIGTERM');
    expect(await a.exit).toBe(0);
  });

  it('the operator token: printed in the banner, fixed by AVATAR_OPERATOR_TOKEN (never a flag), a new one at each in-memory start otherwise', async () => {
    const env = { AVATAR_STATE_DIR: tmp(), AVATAR_OPERATOR_TOKEN: 'op_0123456789abcdef0123' };
    const a = await startBin(['--port', '0', '--in-memory', '--json'], env);
    const info = JSON.parse(a.first);
    expect(info.operator_token).toBe('op_0123456789abcdef0123');
    expect(
      (
        await fetch(`${info.base_url}/_emulator/queue`, {
          headers: { authorization: 'Bearer op_0123456789abcdef0123' },
        })
      ).status,
    ).toBe(200);
    a.child.kill('SIGTERM');
    expect(await a.exit).toBe(0);

    const b = await startBin(['--port', '0', '--in-memory'], { AVATAR_STATE_DIR: tmp() });
    await vi.waitFor(() => expect(b.output()).toMatch(/Ctrl-C stops it/));
    const token = /operator token.*\n\s+(op_[0-9a-f]+)/.exec(b.output())?.[1];
    expect(token).toMatch(/^op_[0-9a-f]{48}$/);
    expect(b.output()).not.toMatch(/WARNING/); // loopback: no warning
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);
  });

  it('a non-loopback bind is announced with a warning; --allowed-hosts is listed and checked', async () => {
    const wide = bindNotes('0.0.0.0', []);
    expect(wide.join(' ').replace(/\s+/g, ' ')).toMatch(
      /WARNING listening on 0\.0\.0\.0, not loopback: the API and the operator routes \(\/_emulator\/\*\) are reachable from the network/,
    );
    expect(wide.filter((l) => l.length > 80)).toEqual([]);
    expect(bindNotes('127.0.0.1', [])).toEqual([]);
    expect(bindNotes('localhost', ['dev.test']).join('\n')).toMatch(/allowed hosts\s+dev\.test/);
    const r = await run(['--port', '0', '--in-memory', '--allowed-hosts', 'http://x.test:80'], {
      AVATAR_STATE_DIR: tmp(),
    });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: --allowed-hosts/);
  });

  it('a port outside 0..65535', async () => {
    const r = await run(['--port', '70000', '--in-memory'], { AVATAR_STATE_DIR: tmp() });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: --port must be an integer from 0 to 65535 \(got 70000\)/);
  });
});

async function startBinJson(env: Record<string, string>) {
  const s = await startBin(['--port', '0', '--in-memory', '--json'], env);
  s.child.kill('SIGTERM');
  await s.exit;
  return s;
}
