import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBox, type RunningBox } from '../src/edge/box/box.js';
import type { EdgeParts } from '../src/edge/session/parts.js';
import { ManualClock } from '../src/emulator/clock.js';
import type { EmulatorOptions } from '../src/emulator/options.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';
import { waitUntil } from './helpers/wait.js';

/**
 * State that must survive an emulator restart (issue 32 item 13): the operator token of a
 * data dir, and a box of another process, which registers again when the control plane is
 * back and says loudly in its log while it is away.
 */
const dirs: string[] = [];
const running: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const r of running.reverse()) await r.stop().catch(() => undefined);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'avatar-restart-'));
  dirs.push(d);
  return d;
};

async function emulator(opts: Partial<EmulatorOptions>): Promise<RunningEmulator> {
  const emu = await startEmulator({
    port: 0,
    host: '127.0.0.1',
    boxes: 0,
    idleMedia: false,
    mintRatePerMinute: 0,
    ...opts,
  });
  running.push(emu);
  return emu;
}

const op = (emu: RunningEmulator, path: string, token: string, method = 'GET') =>
  fetch(emu.baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    body: method === 'GET' ? undefined : '{}',
  });

const liveBoxes = async (emu: RunningEmulator) =>
  (
    (await (await op(emu, '/_emulator/boxes', emu.operatorToken)).json()) as {
      data: { id: string; live: boolean }[];
    }
  ).data
    .filter((b) => b.live)
    .map((b) => b.id);

const mint = async (emu: RunningEmulator) => {
  const r = await fetch(`${emu.baseUrl}/api/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.keys.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ persona: 'ava' }),
  });
  return { status: r.status, body: (await r.json()) as Record<string, any> };
};

describe('the operator token across restarts', () => {
  it('a data dir keeps it (owner only): a token from before the restart still works', async () => {
    const dir = dataDir();
    const first = await emulator({ dataDir: dir });
    const token = first.operatorToken;
    await first.stop();
    const second = await emulator({ dataDir: dir });
    expect(second.operatorToken).toBe(token);
    expect((await op(second, '/_emulator/boxes', token)).status).toBe(200);
    expect(statSync(join(dir, 'operator-token')).mode & 0o777).toBe(0o600);
    await second.stop();
  }, 60_000);

  it('in memory it is new at every start, and the old one gets a 401 that says so', async () => {
    const first = await emulator({ inMemory: true });
    const old = first.operatorToken;
    await first.stop();
    const second = await emulator({ inMemory: true });
    expect(second.operatorToken).not.toBe(old);
    const r = await op(second, '/_emulator/boxes', old);
    expect(r.status).toBe(401);
    const body = (await r.json()) as { error: string; message: string };
    expect(body.error).toBe('unauthorized');
    expect(body.message).toMatch(/earlier start/);
    expect(body.message).toMatch(/new one at every start/);
    expect(body.message).toMatch(/operator_token/);
    // Anything else still gets the plain answer.
    const other = (await (await op(second, '/_emulator/boxes', 'nope')).json()) as {
      message: string;
    };
    expect(other.message).toMatch(/^not an operator credential of this emulator/);
    await second.stop();
  }, 60_000);
});

describe('a box of another process when its control plane restarts', () => {
  // The parts are never reached: no client connects in these tests.
  const parts = {} as EdgeParts;

  async function boxOn(emu: RunningEmulator) {
    const cred = (await (await op(emu, '/_emulator/boxes', emu.operatorToken, 'POST')).json()) as {
      box_id: string;
      secret: string;
    };
    const clock = new ManualClock();
    const logs: string[] = [];
    const box: RunningBox = await startBox({
      controlPlaneUrl: emu.baseUrl,
      boxId: cred.box_id,
      secret: cred.secret,
      seats: 2,
      protocols: [1, 2],
      customAvatars: false,
      verified: false,
      parts,
      clock,
      log: (l) => logs.push(l),
    });
    running.push(box);
    return { box, clock, logs };
  }

  it('says loudly that it is out of the fleet, then registers again on the same data dir', async () => {
    const dir = dataDir();
    const first = await emulator({ dataDir: dir });
    const port = Number(new URL(first.baseUrl).port);
    const { box, clock, logs } = await boxOn(first);
    expect(await liveBoxes(first)).toEqual([box.id]);
    // Nothing to say while the control plane has it.
    clock.advance(5_000);
    await waitUntil(async () => (await liveBoxes(first)).length === 1);
    expect(logs.filter((l) => /WARNING/.test(l))).toEqual([]);

    await first.stop();
    clock.advance(5_000);
    await waitUntil(() => logs.some((l) => /unreachable/.test(l)), 20_000, 'the warning');
    expect(logs.find((l) => /unreachable/.test(l))).toMatch(
      /^WARNING: control plane http:\/\/127\.0\.0\.1:\d+ is unreachable .*OUT OF THE FLEET/,
    );

    const second = await emulator({ dataDir: dir, port });
    expect(await liveBoxes(second)).toEqual([]);
    expect((await mint(second)).body.error).toBe('fleet_busy');
    clock.advance(5_000);
    await waitUntil(() => logs.some((l) => /registered again/.test(l)), 20_000, 're-registration');
    expect(logs.filter((l) => /unreachable/.test(l))).toHaveLength(1);
    expect(await liveBoxes(second)).toEqual([box.id]);
    const m = await mint(second);
    expect(m.status).toBe(201);
    expect(m.body.connect_url).toBe(box.baseUrl);
  }, 60_000);

  it('against a control plane that restarted in memory (the credential is gone) it says so', async () => {
    const first = await emulator({ inMemory: true });
    const port = Number(new URL(first.baseUrl).port);
    const { clock, logs } = await boxOn(first);
    await first.stop();
    await emulator({ inMemory: true, port });
    clock.advance(5_000);
    await waitUntil(() => logs.some((l) => /does not know box/.test(l)), 20_000, 'the warning');
    expect(logs.find((l) => /does not know box/.test(l))).toMatch(
      /^WARNING: .*\(401\).*OUT OF THE FLEET.*avatar edge start/,
    );
  }, 60_000);
});
