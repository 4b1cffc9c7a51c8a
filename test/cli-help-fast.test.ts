import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operations } from '../src/contract/operations/index.js';
import { cli, isolatedEnv } from './helpers/cli.js';

/**
 * `avatar <group> --help` and `avatar <group> <verb> --help` are answered without loading
 * the contract's schemas (zod) or the HTTP client (undici): they used to take 0.5-1.5 s
 * (timings in bench/cli.bench.js; tests assert no time). The built CLI (bin/avatar.js, the
 * one people run) is spawned with a module-resolution hook that logs every module it
 * loads; its help must also be the very text the CLI prints when it builds every command
 * from the contract itself (in-process, from src), so nothing is missing or stale. It runs
 * the built CLI: `npm run build` first (`npm test` does).
 */
const bin = fileURLToPath(new URL('../bin/avatar.js', import.meta.url));
const hook = fileURLToPath(new URL('./helpers/module-log.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'avatar-help-fast-'));

function spawnHelp(args: string[]) {
  const log = join(dir, `${args.join('_')}.log`);
  writeFileSync(log, '');
  const env = { ...isolatedEnv(), AVATAR_TEST_MODULE_LOG: log } as NodeJS.ProcessEnv;
  const r = spawnSync(process.execPath, ['--import', hook, bin, ...args], {
    env,
    encoding: 'utf8',
  });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    modules: readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

const heavy = (modules: string[]) =>
  modules.filter((m) =>
    /node_modules\/(zod|undici)\/|\/dist\/contract\/(operations|resources)\//.test(m),
  );

const paths: string[][] = [
  ['sessions', '--help'],
  ['sessions', 'mint', '--help'],
  ['sessions', 'live', '--help'],
  ['sessions', 'get', '--help'],
  ['help', 'sessions'],
  ['tokens', '--help'],
  ['tokens', 'create', '--help'],
  ['webhooks', '--help'],
  ['webhooks', 'create', '--help'],
  ['avatars', '--help'],
  ['avatars', 'create-custom', '--help'],
  ['speak', '--help'],
  ['embed', '--help'],
  ['workflows', '--help'],
  ['workflows', 'run', '--help'],
  ['demo', '--help'],
];

describe('help for a group or a command loads no schema and no HTTP client', () => {
  it.each(paths.map((p) => [p.join(' '), p] as const))('avatar %s', async (_, args) => {
    const fast = spawnHelp([...args]);
    expect(fast.code, fast.stderr).toBe(0);
    expect(fast.modules.length).toBeGreaterThan(0); // the hook ran
    expect(heavy(fast.modules)).toEqual([]);
    const full = await cli([...args], isolatedEnv());
    expect(fast.stdout).toBe(full.stdout);
  });

  it('every generated command is in its group help, with every flag the contract gives it', () => {
    const create = spawnHelp(['webhooks', 'create', '--help']).stdout;
    expect(create).toMatch(/--secret <secret> .*\(16 to 256 characters\)/s);
    const groups = new Map<string, string>();
    for (const op of operations) {
      if (!op.cli) continue;
      const help = groups.get(op.cli.group) ?? spawnHelp([op.cli.group, '--help']).stdout;
      groups.set(op.cli.group, help);
      // a two-word verb (`queue status`) is listed under its sub-group, which lists it in turn
      const [head, leaf] = op.cli.verb.split(' ');
      expect(help, `${op.cli.group} ${op.cli.verb}`).toMatch(new RegExp(`^  ${head}\\b`, 'm'));
      if (leaf)
        expect(spawnHelp([op.cli.group, head!, '--help']).stdout, op.cli.verb).toMatch(
          new RegExp(`^  ${leaf}\\b`, 'm'),
        );
    }
  });
});
