import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { formatApiError } from '../src/cli/errors.js';
import { renderRecord, renderTable } from '../src/cli/output.js';
import { cli, isolatedEnv } from './helpers/cli.js';

/**
 * What a first try shows at 80 columns (issue 7 review): a mistake's message stays on
 * screen, hints name a command that runs this CLI, and every line fits.
 */
const wide = (text: string, width = 80) => text.split('\n').filter((l) => l.length > width);

describe('a mistake gets a short answer, not a screen of help', () => {
  it('a typo in an option: the error, the suggestion and where help is, in a few lines (exit 2)', async () => {
    const r = await cli(['sessions', 'mint', '--persna', 'ava'], isolatedEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--persna'");
    expect(r.stderr).toContain('(Did you mean --persona?)');
    expect(r.stderr).toContain('avatar sessions mint --help');
    // 30 rows of terminal: the error must still be on screen when the prompt returns.
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(4);
  });

  it('a typo in a command word: the suggestion and where help is, in a few lines', async () => {
    const r = await cli(['sesions', 'list'], isolatedEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown command 'sesions'");
    expect(r.stderr).toContain('(Did you mean sessions?)');
    expect(r.stderr).toContain('avatar --help');
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(4);
  });

  it('a missing argument names the command whose help to read', async () => {
    const r = await cli(['sessions', 'release'], isolatedEnv());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument/);
    expect(r.stderr).toContain('avatar sessions release --help');
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(4);
  });
});

describe('with no emulator running', () => {
  it('the hint names a command that runs this CLI, never `npx avatar` outside a project that has it', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'avatar-first-try-'));
    const env = isolatedEnv({ PATH: '/usr/bin:/bin' });
    for (const argv of [
      ['workspaces', 'list'],
      ['emulator', 'status'],
    ]) {
      const r = await cli(argv, env, elsewhere);
      expect(r.code).not.toBe(0);
      // `npx avatar` here would fetch whatever the registry calls "avatar".
      expect(r.stderr).not.toContain('npx avatar');
      expect(r.stderr).toMatch(/node \/\S+\/bin\/avatar\.js emulator start/);
      expect(wide(r.stderr)).toEqual([]);
    }
  });
});

describe('an emulator that is not there any more', () => {
  it('cannot reach: the question and the command to start one, within 80 columns (exit 5)', async () => {
    const r = await cli(
      ['workspaces', 'list'],
      isolatedEnv({
        PATH: '/usr/bin:/bin',
        AVATAR_BASE_URL: 'http://127.0.0.1:1',
        AVATAR_API_KEY: 'k',
      }),
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:1 (ECONNREFUSED)');
    expect(r.stderr).toMatch(/start one: +node (\S+\/)?bin\/avatar\.js emulator start/);
    expect(wide(r.stderr)).toEqual([]);
  });
});

describe('several emulators and none of this directory: the question fits 80 columns', () => {
  it('names both and how to pick, every line within 80 columns', async () => {
    const env = isolatedEnv();
    const dir = join(env.AVATAR_STATE_DIR!, 'emulators');
    mkdirSync(dir, { recursive: true });
    // Two records of a live process (this one): the CLI cannot tell which to use.
    for (const port of [4780, 44343]) {
      const s = {
        pid: process.pid,
        base_url: `http://127.0.0.1:${port}`,
        workspace_id: 'ws',
        org_id: 'org',
        secret_key: 'k',
        dashboard_key: 'd',
        data_dir: `/tmp/some/long/project/path/number-${port}/.avatar-emulator`,
        started_at: 1,
      };
      writeFileSync(join(dir, `${process.pid}-${port}.json`), JSON.stringify(s));
    }
    const r = await cli(
      ['workspaces', 'list'],
      env,
      mkdtempSync(join(tmpdir(), 'avatar-first-try-')),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('2 local emulators are running');
    expect(r.stderr).toContain('http://127.0.0.1:44343');
    expect(r.stderr).toContain('--base-url URL');
    expect(wide(r.stderr)).toEqual([]);
  });
});

describe('tables at 80 columns', () => {
  it('the note naming the columns left out wraps within the width too', () => {
    const row = Object.fromEntries(
      [
        'id',
        'name',
        'token_prefix',
        'scopes',
        'status',
        'workspace_id',
        'kind',
        'allowed_origins',
        'created_at',
      ].map((k) => [k, `${k}-value-0123456789-abcdef`]),
    );
    const out = renderTable([row, row], undefined, 80);
    expect(out).toMatch(/more columns: .*created_at/s);
    expect(wide(out)).toEqual([]);
    // One left out reads "1 more column".
    const one = renderTable(
      [{ id: 'x'.repeat(40), name: 'y'.repeat(20), extra: 'z'.repeat(20) }],
      undefined,
      80,
    );
    expect(one).toContain('(1 more column: extra; --json shows all)');
  });
});

describe('a 429 for people', () => {
  it('says what to do once, the CLI way, within 80 columns', () => {
    const body = {
      error: 'concurrency_limit',
      message:
        '1 session is live and the free plan allows 1; release one (POST /api/v1/sessions/{id}/release) or wait for the idle reaper (60 s without a heartbeat ends a session never connected), then retry in 15 s',
      retryable: true,
      limit: 1,
      active: 1,
      retry_after: 15,
    };
    const text = formatApiError({
      name: 'ApiResponseError',
      status: 429,
      code: 'concurrency_limit',
      body,
      headers: { 'retry-after': '15' },
    });
    expect(text).toMatch(/^error: concurrency_limit \(HTTP 429\)/);
    expect(text).toContain('avatar sessions release <sessionId>');
    expect(text.replace(/\s+/g, ' ')).toContain('retry in 15 s');
    // The service already says "release one" and the reaper: the CLI adds its command, not the advice again.
    expect(text.match(/release one/g)).toHaveLength(1);
    expect(wide(text)).toEqual([]);
  });
});

describe('a usage error longer than a line', () => {
  it('wraps at word boundaries within 80 columns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-first-try-'));
    const png = readFileSync(
      join(import.meta.dirname, '..', 'fixtures', 'personas', 'ava', 'face.png'),
    );
    writeFileSync(join(dir, 'cut-short-face-image.png'), png.subarray(0, 3000));
    writeFileSync(join(dir, 'voice.wav'), 'x');
    writeFileSync(join(dir, 'prompt.txt'), 'Be brief.');
    const argv = [
      'avatars',
      'create-custom',
      '--name',
      'Casey',
      '--face',
      'cut-short-face-image.png',
      '--voice',
      'voice.wav',
      '--prompt',
      'prompt.txt',
    ];
    const r = await cli(
      argv,
      isolatedEnv({ AVATAR_BASE_URL: 'http://127.0.0.1:1', AVATAR_API_KEY: 'k' }),
      dir,
    );
    expect(r.code).toBe(2);
    expect(r.stderr.replace(/\s+/g, ' ')).toContain(
      '--face cut-short-face-image.png: the png image is truncated or corrupt',
    );
    expect(wide(r.stderr)).toEqual([]);
  });
});

describe('emulator status on an 80-column terminal', () => {
  it("shows each emulator's health (the point of the command), not only its address", async () => {
    const env = isolatedEnv();
    const dir = join(env.AVATAR_STATE_DIR!, 'emulators');
    mkdirSync(dir, { recursive: true });
    const s = {
      pid: process.pid,
      base_url: 'http://127.0.0.1:1',
      workspace_id: 'ws',
      org_id: 'org',
      secret_key: 'k',
      dashboard_key: 'd',
      data_dir: '/tmp/a/project/.avatar-emulator',
      started_at: 1,
    };
    writeFileSync(join(dir, `${process.pid}-1.json`), JSON.stringify(s));
    writeFileSync(
      join(dir, `${process.pid}-2.json`),
      JSON.stringify({ ...s, base_url: 'http://127.0.0.1:2' }),
    );
    let out = '';
    const tty = Object.assign(new Writable({ write: (c, _e, cb) => ((out += c), cb()) }), {
      isTTY: true,
      columns: 80,
    });
    const code = await run(['emulator', 'status'], {
      stdout: tty,
      stderr: new Writable({ write: (_c, _e, cb) => cb() }),
      env,
      cwd: tmpdir(),
    });
    expect(code).toBe(0);
    expect(out.split('\n')[1]).toMatch(/health/);
    expect(out).toContain('ECONNREFUSED');
    expect(out).toMatch(/none is this directory's/);
    expect(wide(out)).toEqual([]);
  });
});

describe('key/value output', () => {
  it('an empty value leaves no trailing blanks (a copied line carries none)', () => {
    const out = renderRecord({ id: 'abc', voice_ref: null, deleted_at: null, name: 'Casey' });
    expect(out.split('\n')).toEqual([
      'id          abc',
      'voice_ref',
      'deleted_at',
      'name        Casey',
    ]);
  });
});
