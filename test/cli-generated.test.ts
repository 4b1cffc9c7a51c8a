import { describe, expect, it } from 'vitest';
import { pathParamNames } from '../src/contract/operation.js';
import { operations } from '../src/contract/operations/index.js';
import { flagsOf } from '../src/cli/schema-flags.js';
import { cli, isolatedEnv } from './helpers/cli.js';

/**
 * Every operation with CLI metadata has its command, with its path ids as arguments and
 * its body fields as flags, by construction from the operation table.
 */
describe.each(operations.filter((o) => o.cli).map((o) => [o.id, o] as const))('%s', (_id, op) => {
  it('has a command whose help shows the route, its arguments and its flags', async () => {
    const { group, verb } = op.cli as { group: string; verb: string };
    const r = await cli([group, ...verb.split(' '), '--help'], isolatedEnv());
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`${op.method.toUpperCase()} ${op.path}`);
    for (const p of pathParamNames(op.path).filter((p) => p !== 'wsId'))
      expect(r.stdout).toContain(`<${p}>`);
    for (const f of flagsOf(op.body)) expect(r.stdout).toContain(`--${f.flag}`);
  });
});
