import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { removeBox, runningBoxes } from '../src/emulator/fleet/spawn.js';
import { emulatorEnv, watchedCli } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `sessions live` ends for the cap and for a box going away, releasing the seat and saying why.
 * The cap is at least 60 s (spec 4.5): the edge's cap timer runs on the emulator's clock, which
 * the test drives past it (media pacing keeps its own real-time clock).
 */
const clock = new ManualClock(Date.now());
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0, sessionCapS: 60, clock });
const env = () => emulatorEnv(h, { workspace: true });

const liveRun = (args: string[]) => watchedCli(args, env());

describe('sessions live endings', () => {
  it('the cap: the edge closes at cap_seconds, the CLI says so and releases', async () => {
    const live = liveRun([
      '--json',
      'sessions',
      'live',
      '--persona',
      'ava',
      '--config',
      '{"greeting_enabled":false}',
    ]);
    const minted = await live.until('minted');
    expect(minted.cap_seconds).toBe(60);
    await live.until('connected');
    clock.advance(60_000);
    expect(await live.code).toBe(0);
    expect(live.lines.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'cap_reached',
      detail: expect.stringMatching(/session_cap/),
      released: true,
    });
    expect((await h.api(`/api/v1/sessions/${minted.session_id}`)).body.status).toBe('ended');
  }, 30_000);

  it('the box going away ends the session with its reason', async () => {
    const live = liveRun([
      '--json',
      'sessions',
      'live',
      '--persona',
      'ava',
      '--config',
      '{"greeting_enabled":false}',
    ]);
    await live.until('connected');
    await removeBox(h.emu.ctx, runningBoxes(h.emu.ctx)[0]!.id);
    expect(await live.code).toBe(0);
    expect(live.lines.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'edge_closed',
      detail: 'box_stopping',
    });
  }, 30_000);
});
