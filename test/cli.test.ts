import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeEmulatorState } from '../src/cli/config.js';
import { ExitCode } from '../src/cli/exit-codes.js';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator();
let env: Record<string, string | undefined>;

beforeAll(() => {
  env = emulatorEnv(h, { workspace: true });
});

describe('output', () => {
  it('--json prints the response body unchanged', async () => {
    const r = await cli(['--json', 'gallery', 'list'], env);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.json()).toEqual(await (await h.fetch('/api/gallery')).json());
  });

  it('human output is a table with the resource fields', async () => {
    const r = await cli(['tokens', 'list'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('token_prefix');
    expect(r.stdout).toContain(h.emu.keys.secretKey.slice(0, 8));
    expect(r.stdout).not.toContain(h.emu.keys.secretKey);
  });

  it('generated commands take body fields as flags and {wsId} from the configured workspace', async () => {
    const r = await cli(
      ['--json', 'devices', 'create', '--name', 'kiosk', '--platform', 'android'],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.json().device).toMatchObject({
      name: 'kiosk',
      platform: 'android',
      workspace_id: h.emu.keys.workspaceId,
    });
    const t = await cli(
      [
        '--json',
        'tokens',
        'create',
        '--name',
        'web',
        '--kind',
        'publishable',
        '--allowed-origins',
        'https://a.example',
        'https://b.example',
      ],
      env,
    );
    expect(t.code).toBe(0);
    expect(t.json().allowed_origins).toEqual(['https://a.example', 'https://b.example']);
  });

  it('--data takes a whole body from a file, flags override its fields', async () => {
    const file = join(env.HOME!, 'body.json');
    writeFileSync(file, JSON.stringify({ name: 'from-file', scopes: ['sessions:read'] }));
    const r = await cli(
      ['--json', 'tokens', 'create', '--data', `@${file}`, '--name', 'overridden'],
      env,
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ name: 'overridden', scopes: ['sessions:read'] });
  });

  it('writes binary responses to --out', async () => {
    const out = join(env.HOME!, 'face.png');
    const r = await cli(['gallery', 'face', 'leo', '--out', out], env);
    expect(r.code).toBe(0);
    expect(readFileSync(out).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('exit codes', () => {
  it('2 for usage errors, before any request is sent', async () => {
    expect((await cli(['no-such-command'], env)).code).toBe(ExitCode.usage);
    const missing = await cli(['tokens', 'create'], env);
    expect(missing.code).toBe(ExitCode.usage);
    expect(missing.stderr).toMatch(/--name/);
    const bad = await cli(['tokens', 'create', '--name', 'x', '--kind', 'weird'], env);
    expect(bad.code).toBe(ExitCode.usage);
  });

  it('3 for a 4xx, with the spec error code on stderr (and the envelope with --json)', async () => {
    const r = await cli(['tokens', 'revoke', crypto.randomUUID()], env);
    expect(r.code).toBe(ExitCode.apiClientError);
    expect(r.stderr).toMatch(/^error: not_found \(HTTP 404\)/);
    expect(r.stdout).toBe('');
    const j = await cli(['--json', 'workspaces', 'list'], {
      ...env,
      AVATAR_API_KEY: 'avatar_00000000.' + '0'.repeat(56),
    });
    expect(j.code).toBe(ExitCode.apiClientError);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: 'unauthorized' });
  });

  it('4 for a 5xx and 5 when nothing answers', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'fleet_busy', message: 'no box', retryable: true }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = await cli(['api', 'GET', '/api/v1/workspaces'], {
        ...env,
        AVATAR_BASE_URL: `http://127.0.0.1:${port}`,
      });
      expect(r.code).toBe(ExitCode.apiServerError);
      expect(r.stderr).toContain('fleet_busy');
    } finally {
      await new Promise((r) => server.close(r));
    }
    const down = await cli(['workspaces', 'list'], {
      ...env,
      AVATAR_BASE_URL: `http://127.0.0.1:${port}`,
    });
    expect(down.code).toBe(ExitCode.network);
    expect(down.stderr).toMatch(/cannot reach/);
  });

  it('2 when no service is configured at all', async () => {
    const r = await cli(['workspaces', 'list'], isolatedEnv());
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toMatch(
      /start one: +(avatar|npx avatar|node \S*bin\/avatar\.js) emulator start/,
    );
  });
});

describe('avatar api', () => {
  it('calls any route with a JSON body', async () => {
    const r = await cli(['api', 'POST', '/api/v1/workspaces', '--data', '{"name":"via api"}'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'via api', plan: 'free' });
    const bad = await cli(['api', 'POST', '/api/v1/workspaces', '--data', '{"name":'], env);
    expect(bad.code).toBe(ExitCode.usage);
  });
});

describe('connection settings', () => {
  it('finds the running local emulator without flags; a record left by a dead process is pruned', async () => {
    const e = isolatedEnv();
    const record = {
      pid: process.pid,
      base_url: h.baseUrl,
      workspace_id: h.emu.keys.workspaceId,
      org_id: h.emu.keys.orgId,
      secret_key: h.emu.keys.secretKey,
      dashboard_key: h.emu.keys.dashboardKey,
      data_dir: null,
      started_at: 0,
    };
    const live = writeEmulatorState(e, record);
    const r = await cli(['--json', 'workspaces', 'list'], e);
    expect(r.code).toBe(0);
    expect(r.json().data[0].id).toBe(h.emu.keys.workspaceId);
    rmSync(live);
    const dead = writeEmulatorState(e, { ...record, pid: 2 ** 22 + 12345 });
    const gone = await cli(['workspaces', 'list'], e);
    expect(gone.code).toBe(ExitCode.usage);
    expect(gone.stderr).toMatch(/no service to talk to/);
    expect(existsSync(dead)).toBe(false);
  });

  it('named profiles; flags beat environment beat profile', async () => {
    const e = isolatedEnv();
    const set = await cli(
      ['--base-url', h.baseUrl, '--api-key', h.emu.keys.dashboardKey, 'config', 'set', 'local'],
      e,
    );
    expect(set.code).toBe(0);
    const show = await cli(['--json', 'config', 'show'], e);
    expect(show.json()).toMatchObject({ base_url: h.baseUrl, source: 'profile local' });
    // The dashboard key lists every workspace of the user.
    expect(
      (await cli(['--json', 'workspaces', 'list'], e)).json().data.length,
    ).toBeGreaterThanOrEqual(1);
    const envWins = await cli(['--json', 'config', 'show'], {
      ...e,
      AVATAR_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(envWins.json()).toMatchObject({ base_url: 'http://127.0.0.1:9', source: 'environment' });
    const flagWins = await cli(['--json', '--base-url', 'http://127.0.0.1:8', 'config', 'show'], {
      ...e,
      AVATAR_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(flagWins.json().base_url).toBe('http://127.0.0.1:8');
    expect((await cli(['--profile', 'nope', 'workspaces', 'list'], e)).code).toBe(ExitCode.usage);
  });
});

describe('tables on a terminal', () => {
  it('fit the terminal width and name the columns left out; pipes get every column', async () => {
    const { renderHuman } = await import('../src/cli/output.js');
    const body = (await (
      await h.fetch('/api/v1/tokens', { key: h.emu.keys.secretKey })
    ).json()) as { data: object[] };
    const narrow = renderHuman(body, 60);
    for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(60);
    expect(narrow).toMatch(/\(\d+ more columns: .*created_at;\s+--json\s+shows\s+all\)$/s);
    const full = renderHuman(body);
    expect(full).toContain('created_at');
    expect(full).not.toContain('more columns');
  });
});
