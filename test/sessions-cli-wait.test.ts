import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/cli/main.js';
import { ManualClock } from '../src/emulator/clock.js';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `avatar sessions mint` waiting in the queue: what it shows on stderr (a terminal gets one
 * line rewritten in place; a pipe gets a line per change), that --json prints only the final
 * body, and that Ctrl-C leaves the queue, also for a key that is not workspace-bound.
 */
// The emulator's clock stands still unless a test moves it: `eta_seconds` counts down with
// it (turnover.ts), and a pipe gets a line per change of ETA, so on a real clock the lines
// depended on how fast this machine ran the earlier tests.
const clock = new ManualClock(Date.now());
const h = useEmulator({ seats: 1, queueRetryAfterS: 1, mintRatePerMinute: 0, clock });

class Collect extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

/** Start the CLI in-process and keep hold of its streams while it runs. */
function start(argv: string[], env: Record<string, string | undefined>, tty = false) {
  const stdout = new Collect();
  const stderr = new Collect(tty);
  const before = new Set(process.listeners('SIGINT'));
  const done = run(argv, { stdout, stderr, env, cwd: process.cwd() });
  return {
    stdout,
    stderr,
    done,
    /** Ctrl-C: call the handlers this run added (never the test runner's own). */
    interrupt() {
      for (const l of process.listeners('SIGINT')) if (!before.has(l)) (l as (s: string) => void)('SIGINT');
    },
  };
}

const tickets = async () => (await (await h.op('/_emulator/queue')).json()).tickets as number;
const holdSeat = async () => (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
const release = (m: { session_id: string }) => h.client.call('sessions.release', { params: { sessionId: m.session_id }, body: {} });

describe('sessions mint: the queue wait', () => {
  it('Ctrl-C cancels the ticket (exit 130), also for an unbound key minting with --workspace-id', async () => {
    const held = await holdSeat();
    const env = isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.dashboardKey });
    const r = start(['sessions', 'mint', '--persona', 'ava', '--workspace-id', h.emu.keys.workspaceId], env);
    await vi.waitFor(async () => expect(await tickets()).toBe(1));
    r.interrupt();
    expect(await r.done).toBe(130);
    expect(r.stderr.text).toMatch(/interrupted: queue ticket cancelled/);
    expect(await tickets()).toBe(0);
    await release(held);
  });

  it('on a pipe, a line per change of position, not one per poll', async () => {
    const held = await holdSeat();
    const env = isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });
    const r = start(['sessions', 'mint', '--persona', 'ava'], env);
    await vi.waitFor(async () => expect(await tickets()).toBe(1));
    // let it poll twice more at the same position (retry_after 1 s): each poll touches the ticket
    const rt = sessionRuntime(h.emu.ctx);
    const id0 = [...(rt.queue as unknown as { tickets: Map<string, { lastTouch: number }> }).tickets.keys()][0]!;
    const seen = new Set<number>();
    await vi.waitFor(() => {
      clock.advance(1); // a poll stamps its touch with the clock: a millisecond tells polls apart
      seen.add(rt.queue.get(id0)!.lastTouch);
      expect(seen.size).toBeGreaterThanOrEqual(3);
    }, { timeout: 5000, interval: 50 });
    await release(held);
    expect(await r.done).toBe(0);
    const lines = r.stderr.text.split('\n').filter((l) => l.startsWith('queued:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^queued: position 1, about \d+ s/);
    expect(r.stderr.text).toMatch(/seated/);
    const id = /session_id\W+([0-9a-f-]{36})/.exec(r.stdout.text)![1]!;
    await h.client.call('sessions.release', { params: { sessionId: id }, body: {} });
  });

  it('on a terminal, one status line rewritten in place, closed when seated', async () => {
    const held = await holdSeat();
    const env = isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });
    const r = start(['sessions', 'mint', '--persona', 'ava'], env, true);
    await vi.waitFor(async () => expect(await tickets()).toBe(1));
    await vi.waitFor(() => expect(r.stderr.text).toMatch(/\r\x1b\[2Kqueued: position 1/));
    await release(held);
    expect(await r.done).toBe(0);
    expect(r.stderr.text.endsWith('\r\x1b[2Kseated\n')).toBe(true);
    const id = /session_id\W+([0-9a-f-]{36})/.exec(r.stdout.text)![1]!;
    await h.client.call('sessions.release', { params: { sessionId: id }, body: {} });
  });

  it('--json prints only the final 201 body on stdout, nothing on stderr', async () => {
    const held = await holdSeat();
    const env = isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });
    const r = start(['--json', 'sessions', 'mint', '--persona', 'ava'], env);
    await vi.waitFor(async () => expect(await tickets()).toBe(1));
    await release(held);
    expect(await r.done).toBe(0);
    const body = JSON.parse(r.stdout.text);
    expect(body).toMatchObject({ status: 'ready' });
    expect(r.stderr.text).toBe('');
    await h.client.call('sessions.release', { params: { sessionId: body.session_id }, body: {} });
  });
});
