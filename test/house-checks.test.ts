/**
 * The house rules as code (issue 21): the lint and the layer check fail, naming the file
 * and the rule, on code that breaks them. The broken code lives in test/lint-fixtures,
 * which the real `npm run lint` and `npm run deps` leave out; this runs the same tools with
 * the same config files on it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const fixtures = join(root, 'test', 'lint-fixtures');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

describe('house checks fail on broken code', () => {
  it('lint: a floating promise fails the type-aware lint, naming the file and line', async () => {
    const r = await run(
      bin('oxlint'),
      ['-c', '.oxlintrc.json', '-f', 'unix', 'test/lint-fixtures/floating.ts'],
      root,
    );
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('test/lint-fixtures/floating.ts:7');
    expect(r.out).toContain('no-floating-promises');
  });

  it('deps: src/edge importing src/emulator, a two-file cycle and a browser file reaching Node or the emulator fail, naming the rule and the import', async () => {
    const config = join(root, '.dependency-cruiser.cjs');
    const r = await run(
      bin('depcruise'),
      ['src', '--config', config, '--output-type', 'err-long'],
      fixtures,
    );
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(
      /error edge-not-emulator: src\/edge\/reach-in\.ts → src\/emulator\/box-registry\.ts/,
    );
    expect(r.out).toMatch(
      /error no-circular: src\/media\/ring-a\.ts →\s+src\/media\/ring-b\.ts →\s+src\/media\/ring-a\.ts/,
    );
    expect(r.out).toMatch(
      /error browser-only-contract: src\/browser\/player\.ts → src\/emulator\/box-registry\.ts/,
    );
    expect(r.out).toMatch(/error browser-no-node-builtin: src\/browser\/player\.ts → fs/);
    expect(r.out).toContain('4 dependency violations');
  });
});
