import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/cli/exit-codes.js';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** CLI failure paths a user hits by hand: each is a clear one-line error and a documented exit code. */
const h = useEmulator();
let env: Record<string, string | undefined>;

beforeAll(() => {
  env = emulatorEnv(h, { workspace: true });
});

describe('errors from the service', () => {
  it('print the whole spec code, suffix included (unknown_tools_field:<key>)', async () => {
    const avatar = (await cli(['--json', 'avatars', 'create', '--name', 'A'], env)).json();
    const r = await cli(['profiles', 'create', avatar.id, '--tools-json', '{"foo":1}'], env);
    expect(r.code).toBe(ExitCode.apiClientError);
    expect(r.stderr).toMatch(/^error: unknown_tools_field:foo \(HTTP 400\)/);
  });
});

describe('generated flags', () => {
  it('send a list of numbers as numbers (--protocol-versions 1)', async () => {
    const r = await cli(
      ['--json', 'sessions', 'mint', '--persona', 'ava', '--protocol-versions', '1'],
      env,
    );
    expect(r.stderr).not.toMatch(/expected number/);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.json()).toMatchObject({ status: 'ready', protocol_version: 1 });
  });

  it('refuse a list item that is not a number as a usage error', async () => {
    const r = await cli(
      ['sessions', 'mint', '--persona', 'ava', '--protocol-versions', 'two'],
      env,
    );
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toMatch(/--protocol-versions/);
  });

  it('--data must be a JSON object', async () => {
    for (const data of ['[1]', 'null', '"text"', '42']) {
      const r = await cli(['tokens', 'create', '--name', 'x', '--data', data], env);
      expect(r.code, data).toBe(ExitCode.usage);
      expect(r.stderr).toMatch(/--data.*JSON object/);
    }
  });

  it('--out into a folder that does not exist is a usage error, not a crash', async () => {
    const r = await cli(
      ['gallery', 'face', 'leo', '--out', join(env.HOME!, 'no', 'such', 'dir', 'face.png')],
      env,
    );
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toMatch(/^error: cannot write .*face\.png/);
    expect(r.stderr).not.toMatch(/unexpected failure/);
  });
});

describe('connection settings', () => {
  it('a base URL that is not an http(s) URL is a usage error naming where it came from', async () => {
    for (const [args, extra, where] of [
      [['--base-url', 'notaurl'], {}, /--base-url/],
      [['--base-url', 'ftp://example.com'], {}, /--base-url/],
      [[], { AVATAR_BASE_URL: 'localhost:4780' }, /AVATAR_BASE_URL/],
    ] as const) {
      const r = await cli([...args, 'workspaces', 'list'], { ...env, ...extra });
      expect(r.code, JSON.stringify(args)).toBe(ExitCode.usage);
      expect(r.stderr).toMatch(where);
      expect(r.stderr).not.toMatch(/unexpected failure/);
    }
  });

  it('a config file that is not valid JSON is reported and never overwritten', async () => {
    const e = isolatedEnv();
    mkdirSync(e.AVATAR_CONFIG_DIR!, { recursive: true });
    const file = join(e.AVATAR_CONFIG_DIR!, 'config.json');
    const broken = '{"profiles":{"prod":{"base_url":"https://api.example.com"}}';
    writeFileSync(file, broken);
    const list = await cli(['config', 'list'], e);
    expect(list.code).toBe(ExitCode.usage);
    expect(list.stderr).toContain(file);
    const set = await cli(['--base-url', h.baseUrl, 'config', 'set', 'dev'], e);
    expect(set.code).toBe(ExitCode.usage);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });

  it('a config file without profiles, and profile names like __proto__, do not crash', async () => {
    const e = isolatedEnv();
    mkdirSync(e.AVATAR_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(e.AVATAR_CONFIG_DIR!, 'config.json'), '{}');
    expect((await cli(['config', 'list'], e)).code).toBe(ExitCode.ok);
    for (const name of ['__proto__', 'toString', 'constructor']) {
      const r = await cli(['--profile', name, 'workspaces', 'list'], e);
      expect(r.code, name).toBe(ExitCode.usage);
      expect(r.stderr).toContain(`no profile named ${name}`);
    }
    const fromEnv = await cli(['workspaces', 'list'], { ...e, AVATAR_PROFILE: 'nope' });
    expect(fromEnv.code).toBe(ExitCode.usage);
    expect(fromEnv.stderr).toContain('no profile named nope');
    expect((await cli(['--base-url', h.baseUrl, 'config', 'set', '__proto__'], e)).code).toBe(
      ExitCode.usage,
    );
    const set = await cli(
      ['--base-url', h.baseUrl, '--api-key', h.emu.keys.secretKey, 'config', 'set', 'dev'],
      e,
    );
    expect(set.code).toBe(ExitCode.ok);
    expect((await cli(['--json', 'workspaces', 'list'], e)).code).toBe(ExitCode.ok);
  });
});
