// CLI start-up cost (issue 7 item 12): wall time of `avatar --version` and `avatar --help`
// next to `node -e 0` (the floor: Node itself), measured in the same run, interleaved so
// machine load hits all three alike. Target: at most 2x the floor. Median of N runs.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'avatar.js');
const N = Number(process.env.CLI_BENCH_RUNS ?? 15);
const cases = {
  'node -e 0': ['-e', '0'],
  'avatar --version': [bin, '--version'],
  'avatar --help': [bin, '--help'],
  'avatar tokens --help': [bin, 'tokens', '--help'],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const env = { PATH: process.env.PATH, HOME: process.env.HOME };
for (let i = 0; i < N; i++) {
  for (const [name, args] of Object.entries(cases)) {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    times[name].push(Number(process.hrtime.bigint() - t) / 1e6);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const floor = median(times['node -e 0']);
for (const [name, a] of Object.entries(times)) {
  const m = median(a);
  console.log(`${name.padEnd(22)} ${m.toFixed(0).padStart(5)} ms   ${(m / floor).toFixed(2)}x node -e 0   (median of ${N})`);
}
