// CLI start-up cost (issue 7 item 12; session 2: help of a group or a command): wall time of
// `avatar --version`, `avatar --help`, group and command help, next to `node -e 0` (the
// floor: Node itself), measured in the same run, interleaved so machine load hits all alike.
// Target: at most 2x the floor for the top-level answers. Median of N runs.
//
// "before" rows: the same help from a copy of dist/ without dist/cli/command-manifest.json,
// so the generated commands are built from the contract's zod schemas, as they were before
// the manifest (src/cli/command-manifest.ts falls back to exactly that).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'avatar.js');
const old = mkdtempSync(join(tmpdir(), 'avatar-cli-bench-'));
cpSync(join(root, 'bin'), join(old, 'bin'), { recursive: true });
cpSync(join(root, 'dist'), join(old, 'dist'), {
  recursive: true,
  filter: (src) => !src.endsWith('command-manifest.json'),
});
cpSync(join(root, 'package.json'), join(old, 'package.json'));
symlinkSync(join(root, 'node_modules'), join(old, 'node_modules'));
const oldBin = join(old, 'bin', 'avatar.js');

const N = Number(process.env.CLI_BENCH_RUNS ?? 15);
const cases = {
  'node -e 0': ['-e', '0'],
  'avatar --version': [bin, '--version'],
  'avatar --help': [bin, '--help'],
  'avatar tokens --help': [bin, 'tokens', '--help'],
  '  before': [oldBin, 'tokens', '--help'],
  'avatar sessions --help': [bin, 'sessions', '--help'],
  '  before ': [oldBin, 'sessions', '--help'],
  'avatar sessions mint --help': [bin, 'sessions', 'mint', '--help'],
  '  before  ': [oldBin, 'sessions', 'mint', '--help'],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
try {
  for (let i = 0; i < N; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const t = process.hrtime.bigint();
      const r = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`${name.trim()} exited ${r.status}`);
      times[name].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
} finally {
  rmSync(old, { recursive: true, force: true });
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const floor = median(times['node -e 0']);
for (const [name, a] of Object.entries(times)) {
  const m = median(a);
  const label = name.startsWith(' ') ? '  before (from the contract)' : name;
  console.log(
    `${label.padEnd(30)} ${m.toFixed(0).padStart(5)} ms   ${(m / floor).toFixed(2)}x node -e 0   (median of ${N})`,
  );
}
