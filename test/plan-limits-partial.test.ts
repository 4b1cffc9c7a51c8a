import { describe, expect, it } from 'vitest';
import { emulatorFlags } from '../src/cli/emulator/emulator-flags.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `--plan-limits '{"free":{"concurrency":1}}'` (issue 7 review): a plan's limit given in
 * part keeps the rest of that plan's defaults, instead of refusing to start with
 * "free.maxCapSeconds: Invalid input: expected number, received undefined".
 */
const h = useEmulator({ planLimits: { free: { concurrency: 1 } }, mintRatePerMinute: 0 });

describe('plan limits given in part', () => {
  it('the CLI flag takes one field of a plan', () => {
    const flag = emulatorFlags.find((f) => f.option === 'planLimits')!;
    expect(flag.parse!('{"free":{"concurrency":1}}')).toEqual({ free: { concurrency: 1 } });
    // A typo is still refused.
    expect(() => flag.parse!('{"free":{"concurency":1}}')).toThrow(/concurency/);
  });

  it('the emulator applies the given field and keeps the plan default for the other', async () => {
    const a = await h.client.send('sessions.mint', {
      body: { persona: 'ava', session_cap_seconds: 3600 },
    });
    expect(a.status).toBe(201);
    expect(a.body.cap_seconds).toBe(3600); // free plan's default maxCapSeconds still holds
    const b = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    expect(b.status).toBe(429);
    expect(b.body).toMatchObject({ error: 'concurrency_limit', limit: 1, active: 1 });
  });
});
