import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { ManualClock } from '../src/emulator/clock.js';
import type { SessionQueue } from '../src/emulator/queue/queue.js';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { isolatedEnv, emulatorEnv } from './helpers/cli.js';
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
  private readonly waiters: { re: RegExp; resolve: () => void }[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    for (const w of [...this.waiters])
      if (w.re.test(this.text)) this.waiters.splice(this.waiters.indexOf(w), 1), w.resolve();
    cb();
  }
  /** Resolves once what was written matches `re` (at once if it already does). */
  until(re: RegExp): Promise<void> {
    if (re.test(this.text)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ re, resolve }));
  }
}

interface Run {
  stdout: Collect;
  stderr: Collect;
  done: Promise<number>;
  interrupt(): void;
}
/** What a test started: interrupted, cancelled and released in afterEach, pass or fail. */
const runs: Run[] = [];
const held: { session_id: string }[] = [];

/**
 * Start the CLI in-process and keep hold of its streams while it runs. The run is also
 * recorded for afterEach, so a failing test never leaves its ticket to the next one.
 */
function start(argv: string[], env: Record<string, string | undefined>, tty = false): Run {
  const stdout = new Collect();
  const stderr = new Collect(tty);
  const before = new Set(process.listeners('SIGINT'));
  const done = run(argv, { stdout, stderr, env, cwd: process.cwd() });
  const r: Run = {
    stdout,
    stderr,
    done,
    /** Ctrl-C: call the handlers this run added (never the test runner's own). */
    interrupt() {
      for (const l of process.listeners('SIGINT'))
        if (!before.has(l)) (l as (s: string) => void)('SIGINT');
    },
  };
  runs.push(r);
  return r;
}

const queue = (): SessionQueue => sessionRuntime(h.emu.ctx).queue;

/**
 * Resolves when the queue has seen `n` more calls of `method` (a ticket admitted, a poll's
 * touch): the event itself, not a guess at how long the CLI takes to get there on a loaded
 * machine. Install before starting the CLI; the test's own timeout bounds the wait.
 */
function onQueue(method: 'admit' | 'touch', n = 1): Promise<void> {
  const q = queue() as unknown as Record<string, (...a: unknown[]) => unknown>;
  const original = q[method]!;
  let seen = 0;
  return new Promise((resolve) => {
    q[method] = function (this: unknown, ...a: unknown[]) {
      const out = original.apply(this, a);
      if (++seen === n) {
        q[method] = original;
        resolve();
      }
      return out;
    };
  });
}

const holdSeat = async () => {
  const m = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
  held.push(m);
  return m;
};
const release = (m: { session_id: string }) =>
  h.client.call('sessions.release', { params: { sessionId: m.session_id }, body: {} });
/** The session a seated CLI run printed, released when the test ends. */
const printed = (id: string) => held.push({ session_id: id });

afterEach(async () => {
  for (const r of runs.splice(0)) {
    r.interrupt();
    await r.done;
  }
  queue().drain();
  for (const m of held.splice(0)) await release(m);
  expect(queue().size).toBe(0);
});

describe('sessions mint: the queue wait', () => {
  it('Ctrl-C cancels the ticket (exit 130), also for an unbound key minting with --workspace-id', async () => {
    await holdSeat();
    const env = isolatedEnv({
      AVATAR_BASE_URL: h.baseUrl,
      AVATAR_API_KEY: h.emu.keys.dashboardKey,
    });
    const r = start(
      ['sessions', 'mint', '--persona', 'ava', '--workspace-id', h.emu.keys.workspaceId],
      env,
    );
    // Ctrl-C once the person sees the place in line (the CLI holds its ticket by then)
    await r.stderr.until(/queued: position 1/);
    expect(queue().size).toBe(1);
    r.interrupt();
    expect(await r.done).toBe(130);
    expect(r.stderr.text).toMatch(/interrupted: queue ticket cancelled/);
    expect(queue().size).toBe(0);
  });

  it('on a pipe, a line per change of position, not one per poll', async () => {
    const seat = await holdSeat();
    const env = emulatorEnv(h);
    const admitted = onQueue('admit');
    const r = start(['sessions', 'mint', '--persona', 'ava'], env);
    await admitted;
    // two more polls at the same position (retry_after 1 s): each poll touches the ticket
    await onQueue('touch', 2);
    await release(seat);
    expect(await r.done).toBe(0);
    const lines = r.stderr.text.split('\n').filter((l) => l.startsWith('queued:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^queued: position 1, about \d+ s/);
    expect(r.stderr.text).toMatch(/seated/);
    printed(/session_id\W+([0-9a-f-]{36})/.exec(r.stdout.text)![1]!);
  });

  it('on a terminal, one status line rewritten in place, closed when seated', async () => {
    const seat = await holdSeat();
    const env = emulatorEnv(h);
    const r = start(['sessions', 'mint', '--persona', 'ava'], env, true);
    await r.stderr.until(/\r\x1b\[2Kqueued: position 1/);
    await release(seat);
    expect(await r.done).toBe(0);
    expect(r.stderr.text.endsWith('\r\x1b[2Kseated\n')).toBe(true);
    printed(/session_id\W+([0-9a-f-]{36})/.exec(r.stdout.text)![1]!);
  });

  it('--json prints only the final 201 body on stdout, nothing on stderr', async () => {
    const seat = await holdSeat();
    const env = emulatorEnv(h);
    const admitted = onQueue('admit');
    const r = start(['--json', 'sessions', 'mint', '--persona', 'ava'], env);
    await admitted;
    await release(seat);
    expect(await r.done).toBe(0);
    const body = JSON.parse(r.stdout.text);
    expect(body).toMatchObject({ status: 'ready' });
    expect(r.stderr.text).toBe('');
    printed(body.session_id);
  });
});
