import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv } from './helpers/cli.js';

/** Issue 9 Deliver 5: examples in the --help of every hand-written command, readable in an 80-column terminal. */
describe('--help of sessions live, demo, smoke, completion', () => {
  for (const cmd of [['sessions', 'live'], ['demo'], ['smoke'], ['completion']]) {
    it(`avatar ${cmd.join(' ')} --help has examples and no line over 80 columns`, async () => {
      const r = await cli([...cmd, '--help'], isolatedEnv());
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/\nExamples:\n {2}\$ avatar /);
      expect(r.stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
    });
  }
});
