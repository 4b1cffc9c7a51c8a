import { describe, expect, it } from 'vitest';
import { resolveConnection, writeEmulatorState } from '../src/cli/config.js';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 19 item 4: what a new user hit in a first hour with the CLI, each as the person saw it.
 */
const h = useEmulator();

describe('AVATAR_BASE_URL naming the running emulator by another loopback name', () => {
  it('localhost, 127.0.0.1 and [::1] on the emulator port all find its key and workspace', () => {
    const env = isolatedEnv();
    const state = {
      pid: process.pid,
      base_url: 'http://127.0.0.1:4780',
      workspace_id: 'ws-1',
      org_id: 'org-1',
      secret_key: 'avatar_k.secret',
      dashboard_key: 'avatar_d.secret',
      data_dir: null,
      started_at: 1,
    };
    writeEmulatorState(env, state);
    for (const url of ['http://localhost:4780', 'http://127.0.0.1:4780/', 'http://[::1]:4780']) {
      const conn = resolveConnection({}, { ...env, AVATAR_BASE_URL: url });
      expect(conn, url).toMatchObject({ apiKey: 'avatar_k.secret', workspaceId: 'ws-1' });
    }
    // another port is another service: no key of this emulator's is sent there
    expect(
      resolveConnection({}, { ...env, AVATAR_BASE_URL: 'http://localhost:4781' })?.apiKey,
    ).toBeUndefined();
  });
});

describe('lists lead with the columns a person reads', () => {
  it('avatars list at 80 columns shows name, kind and status', async () => {
    const env = emulatorEnv(h);
    await h
      .api('/api/v1/avatars', { body: { name: 'Nadia', kind: 'photo' } })
      .catch(() => undefined);
    const r = await cli(['avatars', 'list'], env, undefined, 80);
    expect(r.code).toBe(0);
    const head = r.stdout.split('\n')[1]!;
    for (const col of ['name', 'kind', 'status']) expect(head).toContain(` ${col} `);
  });

  it('tokens list at 80 columns shows kind and status', async () => {
    const env = emulatorEnv(h);
    const r = await cli(['tokens', 'list'], env, undefined, 80);
    expect(r.code).toBe(0);
    const head = r.stdout.split('\n')[1]!;
    for (const col of ['name', 'kind', 'status']) expect(head).toContain(` ${col} `);
  });
});

describe('usage errors that say what to do', () => {
  it('--data with bad JSON says where it stops parsing', async () => {
    const env = emulatorEnv(h);
    const r = await cli(['sessions', 'mint', '--data', '{"persona": "ava", render: false}'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--data is not valid JSON at line 1, column 20');
    expect(r.stderr).toContain(`\n  {"persona": "ava", render: false}\n  ${' '.repeat(19)}^\n`);
  });
});

describe('a mistyped persona', () => {
  it('--persona eva: did you mean ava', async () => {
    const env = emulatorEnv(h);
    const r = await cli(['sessions', 'mint', '--persona', 'eva'], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/did you mean ava\?/);
  });
});

describe('a plain-http webhook on the emulator', () => {
  it('webhooks create --url http://... names --allow-insecure-urls', async () => {
    const env = emulatorEnv(h);
    const r = await cli(
      ['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'queue.dropped'],
      env,
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('--allow-insecure-urls');
  });

  it('mcp add --url http://127.0.0.1:9999/mcp names --allow-insecure-urls (issue 32 item 8)', async () => {
    const env = isolatedEnv({
      AVATAR_BASE_URL: h.baseUrl,
      AVATAR_API_KEY: h.emu.keys.secretKey,
      AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId,
    });
    const r = await cli(
      ['mcp', 'add', '--name', 'local', '--url', 'http://127.0.0.1:9999/mcp'],
      env,
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/detail: url: must\s+be https/);
    expect(r.stderr).toContain('--allow-insecure-urls');
  });
});

describe('the human mint view', () => {
  it('puts what a person reads before the session token', async () => {
    const env = emulatorEnv(h);
    const r = await cli(['sessions', 'mint', '--persona', 'ava'], env, undefined, 80);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const token = lines.indexOf('session_token:');
    for (const key of ['status', 'session_id', 'connect_url', 'expires_at', 'cap_seconds']) {
      const at = lines.findIndex((l) => l.startsWith(`${key} `));
      expect(at, key).toBeGreaterThanOrEqual(0);
      expect(at, key).toBeLessThan(token);
    }
    const id = /^session_id\s+(\S+)/m.exec(r.stdout)![1]!;
    await h.client.call('sessions.release', { params: { sessionId: id }, body: {} });
  });
});

describe('avatar sessions list', () => {
  it('lists the emulator sessions (live ones; --all adds ended), newest first', async () => {
    const env = emulatorEnv(h);
    const a = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body as {
      session_id: string;
    };
    const b = (await h.client.call('sessions.mint', { body: { persona: 'leo' } })).body as {
      session_id: string;
    };
    await h.client.call('sessions.release', { params: { sessionId: a.session_id }, body: {} });
    const live = await cli(['--json', 'sessions', 'list'], env);
    expect(live.code).toBe(0);
    const ids = live.json().data.map((s: { id: string }) => s.id);
    expect(ids).toContain(b.session_id);
    expect(ids).not.toContain(a.session_id);
    const all = await cli(['--json', 'sessions', 'list', '--all'], env);
    expect(all.json().data.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([a.session_id, b.session_id]),
    );
    const human = await cli(['sessions', 'list'], env, undefined, 100);
    expect(human.stdout).toContain(b.session_id.slice(0, 8));
    expect(human.stdout.split('\n')[1]).toMatch(/ status .* persona /);
    await h.client.call('sessions.release', { params: { sessionId: b.session_id }, body: {} });
  });

  it('against a service without the operator route it says so', async () => {
    const { createServer } = await import('node:http');
    const srv = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not_found","message":"no route"}');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      const env = isolatedEnv({
        AVATAR_BASE_URL: `http://127.0.0.1:${port}`,
        AVATAR_API_KEY: 'avatar_x.y',
      });
      const r = await cli(['sessions', 'list'], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/has no session list/);
    } finally {
      srv.close();
    }
  });
});

describe('avatar --help', () => {
  it('groups the commands under headings, one line each at 80 columns', async () => {
    const r = await cli(['--help'], isolatedEnv(), undefined, 80);
    expect(r.code).toBe(0);
    const headings = r.stdout.split('\n').filter((l) => /^\S.*:$/.test(l) && l !== 'Options:');
    expect(headings).toEqual([
      'Start here:',
      'Control plane (/api/v1):',
      'Generations:',
      'Inference:',
      'More:',
    ]);
    const after = r.stdout.slice(r.stdout.indexOf('Start here:'));
    // every command line is a name and its description; no description wraps onto a second line
    expect(after.split('\n').filter((l) => /^ {10,}\S/.test(l))).toEqual([]);
  });
});
