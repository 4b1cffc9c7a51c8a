import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 29 item 1 from the CLI: `avatar emulator scripts [load FILE... | clear]` against a
 * running emulator, a bad file named with its line (a problem the emulator finds, an
 * unknown tool, too), and `--script FILE` (repeatable) on `emulator start` and `exec`.
 */
const h = useEmulator({ boxes: 0 });
const env = () => isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });
const dir = mkdtempSync(join(tmpdir(), 'avatar-scripts-cli-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
/** stderr as one line (the CLI wraps its messages at 80 columns). */
const flat = (s: string) => s.replace(/\s+/g, ' ');
const BIN = join(import.meta.dirname, '..', 'bin', 'avatar.js');

describe('avatar emulator scripts', () => {
  it('on an 80-column terminal the table fits (what does not is named below it); clear counts in words', async () => {
    write(
      'wide.yaml',
      'name: checkout-with-a-long-name\nmatch:\n  persona: ava\n  metadata: { script: checkout, suite: payments }\nrules:\n  - then: [{ say: Hello. }]\n',
    );
    const load = await cli(['emulator', 'scripts', 'load', 'wide.yaml'], env(), dir, 80);
    expect(load.code, load.stderr).toBe(0);
    const list = await cli(['emulator', 'scripts', 'list'], env(), dir, 80);
    const lines = list.stdout.trimEnd().split('\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(list.stdout).toContain('checkout-with-a-long-name');
    const clear = await cli(['emulator', 'scripts', 'clear'], env(), dir, 80);
    expect(clear.stdout.trim()).toBe('cleared 1 script');
  });

  it('load FILE... loads every script of every file; list shows them; clear forgets them', async () => {
    write(
      'a.yaml',
      'name: checkout\nmatch:\n  metadata: { script: checkout }\nstrict: true\nrules:\n  - when: { text: "order" }\n    then:\n      - say: Let me look.\n',
    );
    write('b.json', JSON.stringify({ scripts: [{ name: 'small-talk' }, { name: 'other' }] }));
    const load = await cli(
      ['--json', 'emulator', 'scripts', 'load', 'a.yaml', 'b.json'],
      env(),
      dir,
    );
    expect(load.code, load.stderr).toBe(0);
    expect(load.json().loaded).toEqual(['checkout', 'small-talk', 'other']);
    const list = await cli(['--json', 'emulator', 'scripts'], env());
    expect(list.json().data.map((s: { name: string; source: string }) => s.name)).toEqual([
      'checkout',
      'small-talk',
      'other',
    ]);
    const human = await cli(['emulator', 'scripts'], env());
    expect(human.stdout).toContain('checkout');
    expect(human.stdout).toContain('{"metadata":{"script":"checkout"}}');
    expect(human.stdout).toContain('(every session)');
    const clear = await cli(['emulator', 'scripts', 'clear'], env());
    expect(clear.code).toBe(0);
    expect(clear.stdout).toContain('cleared 3 scripts');
    expect((await cli(['emulator', 'scripts'], env())).stdout.trim()).toBe('no scripts');
  });

  it('a bad file is a usage error naming file:line: field, and nothing is loaded', async () => {
    write('good.yaml', 'name: good\n');
    write('bad.yaml', 'name: bad\nrules:\n  - when: { text: "(" }\n    then: [{ say: x }]\n');
    const r = await cli(['emulator', 'scripts', 'load', 'good.yaml', 'bad.yaml'], env(), dir);
    expect(r.code).toBe(2);
    expect(flat(r.stderr)).toMatch(
      /bad\.yaml:3: rules\.0\.when\.text: not a valid regular expression/,
    );
    expect((await cli(['--json', 'emulator', 'scripts'], env())).json().data).toEqual([]);
  });

  it('an unknown tool (which only the emulator can tell) is named at its line in the file', async () => {
    write(
      'tool.yaml',
      'scripts:\n  - name: one\n  - name: two\n    rules:\n      - then:\n          - say: hold on\n          - tool: lookup_order\n',
    );
    const r = await cli(['emulator', 'scripts', 'load', 'tool.yaml'], env(), dir);
    expect(r.code).toBe(2);
    expect(flat(r.stderr)).toMatch(
      /tool\.yaml:7: scripts\.1\.rules\.0\.then\.1\.tool: unknown tool "lookup_order"/,
    );
    expect((await cli(['--json', 'emulator', 'scripts'], env())).json().data).toEqual([]);
  });
});

/** Prints the names of the loaded scripts of the emulator exec started. */
const PRINT_SCRIPTS = `fetch(process.env.AVATAR_BASE_URL + '/_emulator/scripts', { headers: { authorization: 'Bearer ' + process.env.AVATAR_OPERATOR_TOKEN } }).then((r) => r.json()).then((j) => console.log(JSON.stringify(j.data.map((s) => s.name))))`;

describe('--script FILE at start (repeatable)', () => {
  it('exec passes every --script to the emulator it starts', async () => {
    const one = write('one.yaml', 'name: one\n');
    const two = write('two.yaml', 'scripts: [{ name: two }, { name: three }]\n');
    const r = await cli(
      [
        'emulator',
        'exec',
        '--boxes',
        '0',
        '--script',
        one,
        '--script',
        two,
        '--',
        process.execPath,
        '-e',
        PRINT_SCRIPTS,
      ],
      isolatedEnv(),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toEqual(['one', 'two', 'three']);
  });

  it('exec with a bad script does not start (usage error naming file:line)', async () => {
    const bad = write('exec-bad.yaml', 'name: x\nrules:\n  - then:\n      - dance: yes\n');
    const r = await cli(
      ['emulator', 'exec', '--boxes', '0', '--script', bad, '--', process.execPath, '-e', '1'],
      isolatedEnv(),
    );
    expect(r.code).toBe(2);
    expect(flat(r.stderr)).toMatch(/exec-bad\.yaml:4: rules\.0\.then\.0\.dance: unknown step/);
  });

  const children: ReturnType<typeof spawn>[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('emulator start --script A --script B (the built binary) serves both', async () => {
    const a = write('start-a.yaml', 'name: start-a\n');
    const b = write('start-b.yaml', 'name: start-b\n');
    const state = mkdtempSync(join(tmpdir(), 'avatar-scripts-state-'));
    const child = spawn(
      process.execPath,
      [
        BIN,
        'emulator',
        'start',
        '--port',
        '0',
        '--in-memory',
        '--boxes',
        '0',
        '--json',
        '--script',
        a,
        '--script',
        b,
      ],
      { env: { PATH: process.env.PATH!, HOME: state, AVATAR_STATE_DIR: state }, stdio: 'pipe' },
    );
    children.push(child);
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const info = JSON.parse(first) as { base_url: string; operator_token: string };
    const r = await fetch(`${info.base_url}/_emulator/scripts`, {
      headers: { authorization: `Bearer ${info.operator_token}` },
    });
    expect(((await r.json()) as { data: { name: string }[] }).data.map((s) => s.name)).toEqual([
      'start-a',
      'start-b',
    ]);
    const exited = new Promise((r2) => child.once('exit', r2));
    child.kill('SIGTERM');
    await exited;
  }, 60_000);
});
