/**
 * The idle-media builder when ffmpeg misbehaves (spec 3 `assets_status`): a build that
 * fails or never finishes must not leave an avatar `building` forever, must not crash the
 * emulator, and stopping the emulator must not wait on (or leave behind) a stuck ffmpeg.
 *
 * ffmpeg is replaced by a script (`AVATAR_FFMPEG`, read at each spawn; vitest runs each
 * file in its own process) whose behaviour a mode file switches: `fail` exits 1, `hang`
 * records its pid and sleeps.
 */
import { apiCall } from './helpers/emulator.js';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { until } from './helpers/edge.js';
import { processAlive } from './helpers/wait.js';
import { ManualClock } from '../src/emulator/clock.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';

const dir = mkdtempSync(join(tmpdir(), 'avatar-fake-ffmpeg-'));
const modeFile = join(dir, 'mode');
const pidFile = join(dir, 'pids');
const script = join(dir, 'ffmpeg');
writeFileSync(
  script,
  `#!/bin/sh
mode=$(cat "${modeFile}")
if [ "$mode" = hang ]; then echo $$ >> "${pidFile}"; exec sleep 600; fi
echo "fake ffmpeg: told to fail" >&2
exit 1
`,
);
chmodSync(script, 0o755);
const setMode = (m: 'fail' | 'hang') => writeFileSync(modeFile, m);
process.env.AVATAR_FFMPEG = script;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pids = () =>
  existsSync(pidFile)
    ? readFileSync(pidFile, 'utf8').trim().split('\n').filter(Boolean).map(Number)
    : [];

const api = async (emu: RunningEmulator, path: string, body?: unknown) =>
  (await apiCall(emu, path, { body })).body;

describe('idle media when ffmpeg fails', () => {
  it('goes missing -> building -> missing, keeps serving, and builds the next avatar', async () => {
    setMode('fail');
    const emu = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true, idleSeconds: 1 });
    try {
      const a = await api(emu, '/api/v1/avatars', { name: 'Unlucky' });
      await api(emu, `/api/v1/avatars/${a.id}/versions`, { source_persona: 'ava' });
      // Every build fails; the queue drains instead of stalling on the first failure.
      const stock = await until(
        () => api(emu, '/api/v1/workspaces/ws_stock/avatars'),
        (b) => b.data.every((x: any) => x.assets_status === 'missing'),
      );
      expect(stock.data.map((x: any) => x.assets_status)).toEqual([
        'missing',
        'missing',
        'missing',
        'missing',
      ]);
      const mine = await until(
        () => api(emu, `/api/v1/avatars/${a.id}`),
        (b) => b.assets_status === 'missing',
      );
      expect(mine).toMatchObject({
        assets_status: 'missing',
        status: 'active',
        current_version_id: expect.any(String),
      });
      expect(
        (await api(emu, `/api/v1/avatars/${a.id}/versions/${mine.current_version_id}`))
          .published_at,
      ).toEqual(expect.any(Number));
    } finally {
      await emu.stop();
    }
  });
});

describe('idle media when ffmpeg never finishes', () => {
  it('abandons a build after the build timeout (clock-driven) and kills the stuck ffmpeg', async () => {
    setMode('hang');
    rmSync(pidFile, { force: true });
    const clock = new ManualClock(Date.now());
    const emu = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      inMemory: true,
      idleSeconds: 1,
      clock,
      idleBuildTimeoutS: 30,
    });
    try {
      const first = (await until(pids, (p) => p.length === 1))[0]!;
      expect(processAlive(first)).toBe(true);
      const building = await api(emu, '/api/v1/workspaces/ws_stock/avatars');
      expect(building.data.filter((x: any) => x.assets_status === 'building')).toHaveLength(1);
      const stuck = building.data.find((x: any) => x.assets_status === 'building').id;

      clock.advance(29_000);
      expect((await api(emu, `/api/v1/avatars/${stuck}`)).assets_status).toBe('building');
      clock.advance(1_000);
      // The timeout kills the child and the avatar returns to missing; the next build starts.
      expect(
        await until(
          () => processAlive(first),
          (a) => !a,
        ),
      ).toBe(false);
      expect(
        (
          await until(
            () => api(emu, `/api/v1/avatars/${stuck}`),
            (b) => b.assets_status === 'missing',
          )
        ).assets_status,
      ).toBe('missing');
      expect((await until(pids, (p) => p.length === 2)).length).toBe(2);
    } finally {
      await emu.stop();
    }
    // Stopping does not wait for the stuck build: it kills it.
    const second = pids()[1]!;
    expect(
      await until(
        () => processAlive(second),
        (a) => !a,
      ),
    ).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });
});
