import { getEventListeners } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../src/cli/groups.js';
import { run } from '../src/cli/main.js';
import { realSleep } from '../src/client/mint-queue.js';
import { operations } from '../src/contract/operations/index.js';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 7 items 7, 8 and 10 as a user at an 80-column terminal sees them: the queue line,
 * key/value output, secrets that copy cleanly, `-o -`, --json failures, help width.
 */
const h = useEmulator({ seats: 1, queueRetryAfterS: 1, mintRatePerMinute: 0 });

class Terminal extends Writable {
  text = '';
  isTTY = true;
  columns = 80;
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

const env = () => emulatorEnv(h);
/** What stays on screen: each \r-rewritten row, escape codes removed. */
const rows = (text: string) =>
  text
    .split(/\r|\n/)
    .map((l) => l.replace(/\x1b\[[0-9;]*K/g, ''))
    .filter(Boolean);

describe('the queue wait at 80 columns (item 7)', () => {
  it('every rewritten status line fits one row, and the wait adds no listeners or warnings', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const held = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const stdout = new Terminal();
    const stderr = new Terminal();
    const done = run(['sessions', 'mint', '--persona', 'ava'], {
      stdout,
      stderr,
      env: env(),
      cwd: process.cwd(),
    });
    await vi.waitFor(
      () =>
        expect(
          rows(stderr.text).filter((l) => l.startsWith('queued:')).length,
        ).toBeGreaterThanOrEqual(3),
      { timeout: 8000 },
    );
    await h.client.call('sessions.release', { params: { sessionId: held.session_id }, body: {} });
    expect(await done).toBe(0);
    process.off('warning', onWarning);
    for (const line of rows(stderr.text)) expect(line.length).toBeLessThan(80);
    expect(rows(stderr.text).filter((l) => l.startsWith('queued:'))[0]).toMatch(
      /^queued: position 1, about \d+ s/,
    );
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    const id = /session_id\s+([0-9a-f-]{36})/.exec(stdout.text)![1]!;
    await h.client.call('sessions.release', { params: { sessionId: id }, body: {} });
  });

  it('20 polls on one signal leave no abort listener behind (sleeps and requests alike)', async () => {
    const { mintAndWait } = await import('../src/client/mint-queue.js');
    const held = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const ctrl = new AbortController();
    let polls = 0;
    const sleeps: number[] = [];
    const p = mintAndWait(
      h.client,
      { persona: 'ava' },
      {
        signal: ctrl.signal,
        onQueued: () => polls++,
        // the real sleep, cut to 0 ms: the listener bookkeeping is what is under test
        sleep: (ms, signal) => (
          sleeps.push(getEventListeners(ctrl.signal, 'abort').length), realSleep(0, signal)
        ),
      },
    );
    await vi.waitFor(() => expect(polls).toBeGreaterThanOrEqual(20), {
      timeout: 10_000,
      interval: 20,
    });
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(1);
    ctrl.abort(new Error('done'));
    await expect(p).rejects.toThrow('done');
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
    await h.client.call('sessions.release', { params: { sessionId: held.session_id }, body: {} });
  });

  it('a sleep that completes removes its abort listener (one signal across many polls)', async () => {
    const ctrl = new AbortController();
    for (let i = 0; i < 20; i++) await realSleep(0, ctrl.signal);
    expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
    const pending = realSleep(60_000, ctrl.signal);
    ctrl.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('human output fits a terminal (item 8)', () => {
  it('sessions mint at 80 columns: key/value lines fit, the session token stands whole on its own line', async () => {
    const stdout = new Terminal();
    const stderr = new Terminal();
    expect(
      await run(['sessions', 'mint', '--persona', 'ava'], {
        stdout,
        stderr,
        env: env(),
        cwd: process.cwd(),
      }),
    ).toBe(0);
    const lines = stdout.text.trimEnd().split('\n');
    const token = lines.find((l) => /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(l));
    expect(token, 'the token on a line by itself').toBeDefined();
    expect(lines[lines.indexOf(token!) - 1]).toMatch(/token:$/);
    for (const l of lines) if (l !== token) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines.length).toBeLessThan(40);
    expect(stdout.text).not.toMatch(/[│┌└]/);
    // Times read as dates for humans; --json keeps the raw numbers.
    expect(stdout.text).toMatch(/expires_at\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    const id = /session_id\s+([0-9a-f-]{36})/.exec(stdout.text)![1]!;
    const raw = await cli(['--json', 'sessions', 'get', id], env());
    expect(typeof raw.json().created_at).toBe('number');
    await h.client.call('sessions.release', { params: { sessionId: id }, body: {} });
  });

  it('tokens create: the one-time secret is on its own line, no table border to pick up', async () => {
    const r = await cli(['tokens', 'create', '--name', 'copy-me'], env());
    expect(r.code).toBe(0);
    const secretLine = r.stdout.split('\n').find((l) => /^avatar_[0-9a-f]{8}\.[0-9a-f]+$/.test(l));
    expect(secretLine).toBeDefined();
    expect(r.stdout).not.toMatch(/[│┌└]/);
  });
});

describe('flags and failures (item 10)', () => {
  it('-o - writes a binary answer to stdout', async () => {
    const r = await cli(['gallery', 'face', 'leo', '-o', '-'], env());
    expect(r.code).toBe(0);
    expect(r.stdout.slice(1, 4)).toBe('PNG');
  });

  it('with --json every failure is an error envelope on stderr and stdout stays empty', async () => {
    const usage = await cli(['--json', 'tokens', 'create', '--nope'], env());
    expect(usage.code).toBe(2);
    expect(usage.stdout).toBe('');
    expect(JSON.parse(usage.stderr)).toMatchObject({
      error: 'usage',
      message: expect.stringContaining('--nope'),
    });
    const api = await cli(
      ['--json', 'tokens', 'revoke', '00000000-0000-4000-8000-000000000000'],
      env(),
    );
    expect(api.code).toBe(3);
    expect(api.stdout).toBe('');
    expect(JSON.parse(api.stderr)).toHaveProperty('error');
    const local = await cli(['--json', 'sessions', 'mint', '--data', '@missing.json'], env());
    expect(local.code).toBe(2);
    expect(JSON.parse(local.stderr)).toMatchObject({
      error: 'usage',
      message: expect.stringContaining('--data: cannot read missing.json'),
    });
  });

  it('sessions mint takes --data; object flags take @file; an empty AVATAR_API_KEY is unset', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'avatar-data-'));
    writeFileSync(join(dir, 'meta.json'), JSON.stringify({ team: 'blue' }));
    writeFileSync(join(dir, 'body.json'), JSON.stringify({ persona: 'ava' }));
    const r = await cli(
      ['--json', 'sessions', 'mint', '--data', '@body.json', '--metadata', '@meta.json'],
      env(),
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ status: 'ready' });
    await h.client.call('sessions.release', {
      params: { sessionId: r.json().session_id },
      body: {},
    });
    // AVATAR_API_KEY= (empty) falls through to the next source instead of sending "Bearer ".
    const e = isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: '' });
    const show = await cli(['--json', '--api-key', h.emu.keys.secretKey, 'config', 'show'], e);
    expect(show.json().api_key).toMatch(/^avatar_/);
  });

  it('a workspace-bound key implies its workspace for {wsId} commands', async () => {
    const e = emulatorEnv(h);
    const r = await cli(['--json', 'devices', 'list'], e);
    expect(r.code).toBe(0);
    const unbound = await cli(['devices', 'list'], {
      ...e,
      AVATAR_API_KEY: h.emu.keys.dashboardKey,
    });
    // the dashboard key of a user with one workspace sees exactly that one: fine either way,
    // but never a request to a wrong workspace
    expect([0, 2]).toContain(unbound.code);
  });

  it.each([60, 80, 100])(
    'the fast top-level help (no commander loaded) is the text commander prints, at %i columns',
    async (columns) => {
      const { topHelp } = await import('../src/cli/top-help.js');
      const stdout = new Terminal();
      stdout.columns = columns;
      expect(
        await run(['--help'], {
          stdout,
          stderr: new Terminal(),
          env: isolatedEnv(),
          cwd: process.cwd(),
        }),
      ).toBe(0);
      expect(topHelp({ stdout: { isTTY: true, columns } }, await loadRegistry())).toBe(stdout.text);
    },
  );

  it('help fits 80 columns for every command, and every generated group is listed for `avatar --help`', async () => {
    const groups = new Set(operations.flatMap((o) => (o.cli ? [o.cli.group] : [])));
    const commandGroups = await loadRegistry();
    for (const g of groups) expect(commandGroups.map((c) => c.name)).toContain(g);
    const top = await cli(['--help'], isolatedEnv());
    for (const g of commandGroups) expect(top.stdout).toContain(`  ${g.name}`);
    const paths = [['--help'], ...commandGroups.map((g) => [g.name, '--help'])];
    for (const o of operations)
      if (o.cli) paths.push([o.cli.group, ...o.cli.verb.split(' '), '--help']);
    paths.push(
      ['emulator', 'start', '--help'],
      ['sessions', 'mint', '--help'],
      ['avatars', 'create-custom', '--help'],
    );
    for (const p of paths) {
      const r = await cli(p, isolatedEnv());
      for (const line of r.stdout.split('\n'))
        expect(line.length, `${p.join(' ')}: ${line}`).toBeLessThanOrEqual(80);
      // every option says what it is
      for (const line of r.stdout.split('\n'))
        if (/^  --?[a-z]/.test(line) && !/ {2}\S/.test(line.trim())) {
          const i = r.stdout.split('\n').indexOf(line);
          expect(
            r.stdout.split('\n')[i + 1] ?? '',
            `${p.join(' ')}: ${line} has no description`,
          ).toMatch(/^ {6,}\S/);
        }
    }
  });
});
