import { describe, expect, it } from 'vitest';
import { DrivableClock, ManualClock } from '../src/emulator/clock.js';
import { parseDuration } from '../src/cli/emulator/emulator-clock.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 18 item 4: the emulator's default clock can be frozen, advanced and resumed at run
 * time (operator route and `avatar emulator clock`), so idle reapers and rate-limit windows
 * are testable in seconds without starting the emulator on a ManualClock.
 */
describe('DrivableClock', () => {
  it('runs with real time, stops when frozen, fires due timers in order on advance, resumes from where it stood', () => {
    const real = new ManualClock(1_000_000);
    const c = new DrivableClock(real);
    const fired: string[] = [];
    c.setTimeout(() => fired.push('b@5s'), 5_000);
    c.setTimeout(() => fired.push('a@2s'), 2_000);
    c.setTimeout(() => fired.push('c@60s'), 60_000);
    real.advance(2_500);
    expect(fired).toEqual(['a@2s']);
    expect(c.now()).toBe(1_002_500);
    c.freeze();
    real.advance(10_000); // wall time passes; the frozen clock does not
    expect(c.now()).toBe(1_002_500);
    expect(fired).toEqual(['a@2s']);
    c.advance(3_000);
    expect(fired).toEqual(['a@2s', 'b@5s']);
    expect(c.now()).toBe(1_005_500);
    c.resume();
    expect(c.now()).toBe(1_005_500);
    real.advance(54_499);
    expect(fired).toEqual(['a@2s', 'b@5s']);
    real.advance(1);
    expect(fired).toEqual(['a@2s', 'b@5s', 'c@60s']);
    // A timer set inside a timer that falls due within the advance fires too.
    c.setTimeout(() => c.setTimeout(() => fired.push('nested'), 1_000), 1_000);
    c.advance(2_000);
    expect(fired.at(-1)).toBe('nested');
  });
});

describe('the clock of a default emulator, over HTTP and the CLI', () => {
  const h = useEmulator({
    seats: 1,
    pendingIdleS: 60,
    waiterIdleS: 3600,
    mintRatePerMinute: 0,
    orgPlan: 'free',
  });
  const env = () => emulatorEnv(h);
  const status = async (id: string) => (await h.api(`/api/v1/sessions/${id}`)).body.status;

  it('freeze, advance past the idle reaper: the never-connected session ends and the queued ticket becomes claimable', async () => {
    const frozen = await cli(['--json', 'emulator', 'clock', 'freeze'], env());
    expect(frozen.code).toBe(0);
    expect(frozen.json()).toMatchObject({ frozen: true, drivable: true });
    const a = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    expect(a.status).toBe(201);
    const q = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    expect(q.body.status).toBe('queued');
    const before = frozen.json().now_ms;
    const moved = await cli(['--json', 'emulator', 'clock', 'advance', '61s'], env());
    expect(moved.code).toBe(0);
    expect(moved.json().now_ms).toBe(before + 61_000);
    expect(await status(a.body.session_id)).toBe('ended');
    expect((await h.api(`/api/v1/sessions/queue/${q.body.queue_ticket}`)).body.state).toBe(
      'claimable',
    );
    const human = await cli(['emulator', 'clock'], env());
    expect(human.stdout).toBe(`${new Date(before + 61_000).toISOString()}  frozen\n`);
    expect((await cli(['--json', 'emulator', 'clock', 'resume'], env())).json()).toMatchObject({
      frozen: false,
    });
  });

  it('a rate-limit window closes after advance, not after a minute of waiting', async () => {
    await cli(['emulator', 'clock', 'freeze'], env());
    for (let i = 0; i < 10; i++)
      expect(
        (await h.api('/compat-a/v1/embeddings', { body: { model: 'avatar-embed', input: 'x' } }))
          .status,
      ).toBe(200);
    expect(
      (await h.api('/compat-a/v1/embeddings', { body: { model: 'avatar-embed', input: 'x' } }))
        .status,
    ).toBe(429);
    expect((await cli(['emulator', 'clock', 'advance', '1m'], env())).code).toBe(0);
    expect(
      (await h.api('/compat-a/v1/embeddings', { body: { model: 'avatar-embed', input: 'x' } }))
        .status,
    ).toBe(200);
    await cli(['emulator', 'clock', 'resume'], env());
  });

  it('refuses a bad duration (usage, exit 2) and a bad advance body (400)', async () => {
    const bad = await cli(['emulator', 'clock', 'advance', 'soon'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/a duration is a number with a unit, like 90s/);
    for (const body of ['{"ms":-1}', '{"ms":"soon"}', '{']) {
      const r = await h.fetch('/_emulator/clock/advance', {
        key: h.emu.keys.secretKey,
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status).toBe(400);
    }
    expect([
      parseDuration('1500ms'),
      parseDuration('90'),
      parseDuration('1h30m'),
      parseDuration('1d'),
    ]).toEqual([1_500, 90_000, 5_400_000, 86_400_000]);
  });
});
