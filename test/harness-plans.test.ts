import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { emulatorFlags } from '../src/cli/emulator/emulator-flags.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 18 item 10: the emulator's own organisation does not stall local work by default
 * (the 11th chat completion in a minute used to answer 429 Retry-After: 60 and the openai
 * client hung on its retry), `orgPlan` (--org-plan) selects the spec's limits, and a
 * request refused before any model ran does not spend a job submission.
 */
const byDefault = useEmulator({ clock: new ManualClock() });
const clock = new ManualClock();
const free = useEmulator({ clock, orgPlan: 'free' });

const openai = (h: typeof free) =>
  new OpenAI({ baseURL: `${h.baseUrl}/compat-a/v1`, apiKey: h.emu.keys.secretKey, maxRetries: 0 });
const ask = (h: typeof free) =>
  openai(h).chat.completions.create({
    model: 'avatar-chat',
    messages: [{ role: 'user', content: 'hello' }],
  });
const plan = async (h: typeof free) =>
  (await h.api('/api/organizations', { key: h.emu.keys.dashboardKey })).body.data[0].plan;

describe('plans for local work', () => {
  it('by default the bootstrap organisation is on enterprise: 30 chat completions in a minute all answer', async () => {
    expect(await plan(byDefault)).toBe('enterprise');
    for (let i = 0; i < 30; i++)
      expect((await ask(byDefault)).choices[0]!.message.role).toBe('assistant');
  }, 60_000);

  it('orgPlan free gives the spec limit: the 11th chat completion in a minute is 429 rate_limit with Retry-After', async () => {
    expect(await plan(free)).toBe('free');
    for (let i = 0; i < 10; i++) await ask(free);
    const err = await ask(free).catch((e: unknown) => e as InstanceType<typeof OpenAI.APIError>);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(429);
    expect((err as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('60');
    clock.advance(61_000);
  }, 60_000);

  it('requests refused before any model ran (bad body, unknown model) do not spend a job submission', async () => {
    const c = openai(free);
    for (let i = 0; i < 12; i++) {
      const bad = await c.chat.completions
        .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })
        .catch((e) => e);
      expect(bad.status).toBe(404);
      const invalid = await c.chat.completions
        .create({ model: 'avatar-chat', messages: [] })
        .catch((e) => e);
      expect(invalid.status).toBe(400);
    }
    for (let i = 0; i < 10; i++) await ask(free);
    expect(((await ask(free).catch((e) => e)) as { status: number }).status).toBe(429);
    clock.advance(61_000);
  }, 60_000);

  it('--org-plan takes free, pro or enterprise and names the flag otherwise', () => {
    const flag = emulatorFlags.find((f) => f.option === 'orgPlan')!;
    expect(flag.parse!('pro')).toBe('pro');
    expect(() => flag.parse!('gold')).toThrow(
      /^--org-plan must be one of free, pro, enterprise \(got gold\)$/,
    );
  });
});
