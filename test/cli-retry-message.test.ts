import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * A 429 read by a person: what happened, when to retry and what to do, each said once
 * (the retry time used to come twice: the service's "retry in 40 s" and the CLI's
 * "retry in 40 s (retry_after 40)"). --json keeps the service's envelope for scripts.
 */
const clock = new ManualClock(Date.now());
const h = useEmulator({ clock, mintRatePerMinute: 2, orgPlan: 'free' });
const env = () => emulatorEnv(h, { workspace: true });
/** Every "<n> s", "<n> min", "retry_after <n>": each is a way of saying when to retry. */
const times = (text: string) =>
  text.replace(/\s+/g, ' ').match(/\b\d+ (s|min|h)\b|retry_after \d+/g) ?? [];

describe('429 messages say when to retry once', () => {
  it('inference rate_limit: the service says when; the CLI adds what to do, not the time again', async () => {
    for (let i = 0; i < 10; i++) expect((await cli(['--json', 'embed', 'x'], env())).code).toBe(0);
    clock.advance(20_000);
    const r = await cli(['embed', 'x'], env());
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: rate_limit \(HTTP 429\)/);
    expect(times(r.stderr)).toEqual(['40 s']);
    expect(r.stderr.replace(/\s+/g, ' ')).toMatch(/per organisation|spread|wait/i);
    expect(r.stderr.split('\n').filter((l) => l.length > 80)).toEqual([]);
    const j = await cli(['--json', 'embed', 'x'], env());
    expect(JSON.parse(j.stderr).error).toMatchObject({ code: 'rate_limit' });
    clock.advance(61_000);
  });

  it('mint rate_limited: the time once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const m = await cli(['--json', 'sessions', 'mint', '--persona', 'ava'], env());
      expect(m.code, m.stderr).toBe(0);
      ids.push(m.json().session_id);
    }
    const r = await cli(['sessions', 'mint', '--persona', 'ava'], env());
    expect(r.stderr).toMatch(/^error: rate_limited \(HTTP 429\)/);
    expect(times(r.stderr)).toHaveLength(1);
    for (const id of ids) await cli(['sessions', 'release', id], env());
  });
});
