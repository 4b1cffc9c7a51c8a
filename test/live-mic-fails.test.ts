import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `--mic` on a machine whose recorder is installed but cannot record (sox with no input
 * device exits 1 at once). Without a terminal nobody can type instead: the session must end
 * with the reason and free the seat, not hold it silently until the cap (issue 9, Deliver 1).
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const bin = mkdtempSync(join(tmpdir(), 'avatar-mic-fails-'));

describe('sessions live --mic when the recorder fails', () => {
  it('ends with reason error naming the recorder, releases the seat and exits 1', async () => {
    writeFileSync(
      join(bin, 'sox'),
      '#!/bin/sh\necho "sox FAIL formats: can\'t open input  `default\': No such file or directory" >&2\nexit 1\n',
      { mode: 0o755 },
    );
    // node-record-lpcm16 spawns with the process environment, so the stand-in must be on its PATH too.
    vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);
    const env = emulatorEnv(h, { env: { PATH: `${bin}:${process.env.PATH}` } });
    const r = await cli(
      ['--json', 'sessions', 'live', '--persona', 'ava', '--mic', '--no-play'],
      env,
    );
    vi.unstubAllEnvs();
    const ev = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(r.code).toBe(1);
    const end = ev.at(-1)!;
    expect(end).toMatchObject({ event: 'ended', reason: 'error', released: true });
    expect(end.detail).toMatch(/^recorder sox failed/);
    expect((await h.api(`/api/v1/sessions/${ev[0]!.session_id}`)).body.status).toBe('ended');
  }, 60_000);
});
