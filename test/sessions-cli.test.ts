import { describe, expect, it, vi } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** `avatar sessions mint` waits through the queue by itself; queue status/cancel; --no-wait. */
const h = useEmulator({ seats: 1, queueRetryAfterS: 1, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });

describe('avatar sessions mint', () => {
  it('mints at once when a seat is free (--json prints the 201)', async () => {
    const r = await cli(
      ['--json', 'sessions', 'mint', '--persona', 'ava', '--session-cap-seconds', '120'],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ status: 'ready', cap_seconds: 120 });
    await h.client.call('sessions.release', {
      params: { sessionId: r.json().session_id },
      body: {},
    });
  });

  it('waits in the queue, shows its position, and claims when the seat frees', async () => {
    const held = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const run = cli(['sessions', 'mint', '--persona', 'leo'], env());
    await vi.waitFor(async () =>
      expect((await (await h.op('/_emulator/queue')).json()).tickets).toBe(1),
    );
    await h.client.call('sessions.release', { params: { sessionId: held.session_id }, body: {} });
    const r = await run;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/queued: position 1/);
    expect(r.stdout).toMatch(/ready/);
    expect((await (await h.op('/_emulator/queue')).json()).tickets).toBe(0);
    const id = /session_id\W+([0-9a-f-]{36})/.exec(r.stdout)![1]!;
    await h.client.call('sessions.release', { params: { sessionId: id }, body: {} });
  });

  it('--no-wait returns the 202; queue status and cancel work on its ticket', async () => {
    const held = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const r = await cli(['--json', 'sessions', 'mint', '--persona', 'ava', '--no-wait'], env());
    expect(r.code).toBe(0);
    const q = r.json();
    expect(q).toMatchObject({ status: 'queued', state: 'waiting', position: 1 });
    const s = await cli(['--json', 'sessions', 'queue', 'status', q.queue_ticket], env());
    expect(s.json()).toMatchObject({ state: 'waiting', position: 1 });
    expect((await cli(['sessions', 'queue', 'cancel', q.queue_ticket], env())).code).toBe(0);
    expect(
      (await cli(['--json', 'sessions', 'queue', 'status', q.queue_ticket], env())).json(),
    ).toEqual({ state: 'expired', retry_after: 1 });
    // For a person: the command has returned, so no "Ctrl-C leaves the queue"; how to keep the place instead.
    const human = await cli(['sessions', 'mint', '--persona', 'ava', '--no-wait'], env());
    expect(human.code).toBe(0);
    expect(human.stderr).not.toMatch(/Ctrl-C/);
    const ticket = /queue_ticket +(qt_\w+)/.exec(human.stdout)![1]!;
    expect(human.stderr).toContain(`avatar sessions queue status ${ticket}`);
    await cli(['sessions', 'queue', 'cancel', ticket], env());
    await h.client.call('sessions.release', { params: { sessionId: held.session_id }, body: {} });
  });

  it('a mint error maps to an exit code with the error code', async () => {
    const r = await cli(
      ['sessions', 'mint', '--persona', 'ava', '--session-cap-seconds', '5'],
      env(),
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/invalid_session_cap_seconds/);
  });
});
