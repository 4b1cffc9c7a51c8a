import { describe, expect, it } from 'vitest';
import { startEmulator } from '../src/emulator/start.js';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** `avatar smoke` fails clearly: the step named, a non-zero exit, nothing left held. */
describe('avatar smoke failures', () => {
  const h = useEmulator({ boxes: 0, mintRatePerMinute: 0 });
  const env = (baseUrl = h.baseUrl) =>
    isolatedEnv({
      AVATAR_BASE_URL: baseUrl,
      AVATAR_API_KEY: h.emu.keys.secretKey,
      AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId,
    });

  it('an emulator with no box fails at mint with the fleet error, exit 4', async () => {
    const r = await cli(['smoke'], env());
    expect(r.stdout).toMatch(
      /^ok   gallery +\d+ ms  4 personas; using ava\nFAIL mint +\d+ ms  HTTP 503 fleet_busy: no box is registered/,
    );
    expect(r.stdout).not.toMatch(/connect/);
    expect(r.stderr).toMatch(/smoke failed at step mint: HTTP 503 fleet_busy/);
    expect(r.code).toBe(4);
  });

  it('--json prints one record per step and the failed step', async () => {
    const r = await cli(['--json', 'smoke'], env());
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.step, l.ok])).toEqual([
      ['gallery', true],
      ['mint', false],
      [undefined, false],
    ]);
    expect(lines.at(-1)).toMatchObject({ ok: false, failed_step: 'mint' });
    expect(r.code).toBe(4);
  });

  it('a stopped emulator fails at gallery as unreachable, exit 5', async () => {
    const gone = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true, boxes: 0 });
    const url = gone.baseUrl;
    await gone.stop();
    const r = await cli(['smoke', '--timeout', '10'], env(url));
    expect(r.stdout).toMatch(/^FAIL gallery +\d+ ms  cannot reach the service \(ECONNREFUSED\)\n$/);
    expect(r.stderr).toMatch(/smoke failed at step gallery/);
    expect(r.code).toBe(5);
  });

  it('--timeout must be a positive number', async () => {
    const r = await cli(['smoke', '--timeout', 'soon'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--timeout must be a positive number/);
  });
});

describe('avatar smoke against a working emulator', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
  const env = () => emulatorEnv(h, { workspace: true });

  it('passes every step in order, one line each with its time, and leaves no seat held', async () => {
    const r = await cli(['smoke', '--persona', 'leo'], env());
    expect(r.code).toBe(0);
    const steps = r.stdout.trim().split('\n');
    expect(steps.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'ok gallery',
      'ok mint',
      'ok connect',
      'ok turn',
      'ok media',
      'ok release',
      'ok transcript',
      'smoke passed:',
    ]);
    expect(steps.slice(0, 7).every((l) => / \d+ ms {2}\S/.test(l))).toBe(true);
    expect(r.stdout).toMatch(
      /ok {3}media .* first fragment \d+ bytes \(video\/mp4; codecs="avc1\./,
    );
    expect(r.stdout).toMatch(/ok {3}transcript .* \d+ turns? \(source (store|live)\)/);
    const sessionId = /session ([0-9a-f-]{36})/.exec(r.stdout)![1];
    expect((await h.api(`/api/v1/sessions/${sessionId}`)).body.status).toBe('ended');
  }, 90_000);
});
