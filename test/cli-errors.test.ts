import { describe, expect, it } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 7 items 5 and 10: what a 429 tells a person (retry_after and what to do), and
 * `--origin` for publishable keys.
 */
const h = useEmulator({
  planLimits: { free: { concurrency: 1, maxCapSeconds: 3600 } },
  mintRatePerMinute: 0,
});

describe('429 for people', () => {
  it('concurrency_limit says how many are in use, what to do, and retry_after; --json keeps the envelope', async () => {
    const env = emulatorEnv(h);
    const first = await cli(['--json', 'sessions', 'mint', '--persona', 'ava'], env);
    expect(first.code).toBe(0);
    const r = await cli(['sessions', 'mint', '--persona', 'ava'], env);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: concurrency_limit \(HTTP 429\)/);
    // What to do, as a command of this CLI, and when to retry (from the service's message or ours).
    const flat = r.stderr.replace(/\s+/g, ' '); // wrapped at 80 columns
    expect(flat).toContain('avatar sessions release <sessionId>');
    expect(flat).toMatch(/idle reaper/);
    expect(flat).toMatch(/retry in 15 s/);
    expect(r.stderr.split('\n').filter((l) => l.length > 80)).toEqual([]);
    const j = await cli(['--json', 'sessions', 'mint', '--persona', 'ava'], env);
    expect(JSON.parse(j.stderr)).toMatchObject({ error: 'concurrency_limit', retry_after: 15 });
    await h.client.call('sessions.release', {
      params: { sessionId: first.json().session_id },
      body: {},
    });
  });
});

describe('--origin', () => {
  it('sends an Origin header, which a publishable key is checked against', async () => {
    const env = emulatorEnv(h);
    const made = await cli(
      [
        '--json',
        'tokens',
        'create',
        '--name',
        'web',
        '--kind',
        'publishable',
        '--allowed-origins',
        'https://app.example.com',
      ],
      env,
    );
    expect(made.code).toBe(0);
    const pk = made.json().token as string;
    const withOrigin = await cli(
      [
        '--json',
        '--api-key',
        pk,
        '--origin',
        'https://app.example.com',
        'sessions',
        'mint',
        '--persona',
        'ava',
      ],
      env,
    );
    expect(withOrigin.stderr).toBe('');
    expect(withOrigin.code).toBe(0);
    await h.client.call('sessions.release', {
      params: { sessionId: withOrigin.json().session_id },
      body: {},
    });
    const other = await cli(
      [
        '--json',
        '--api-key',
        pk,
        '--origin',
        'https://evil.example',
        'sessions',
        'mint',
        '--persona',
        'ava',
      ],
      env,
    );
    expect(other.code).toBe(3);
  });
});
