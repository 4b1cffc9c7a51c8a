import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** Ctrl-C during `sessions live` (docs/live.md "How it ends": reason `interrupted`, exit 130). */
// ink decides at import, from process.env, to draw nothing but the last frame under CI:
// this process plays a terminal that is not one.
for (const k of ['CI', 'CONTINUOUS_INTEGRATION']) delete process.env[k];

const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
/** Wait until `seen()` holds, woken by each write; fail at once, with what was said, if the run ends first. */
async function until(
  seen: () => boolean,
  wait: () => Promise<void>,
  code: Promise<number>,
  said: () => string,
): Promise<void> {
  let waiting = true;
  const ended = code.then((c) => {
    if (waiting)
      throw new Error(
        `the CLI ended (exit ${c}) before it showed what the test waits for:\n${said()}`,
      );
  });
  ended.catch(() => undefined); // raced below while waiting; nobody's concern after
  try {
    while (!seen()) await Promise.race([wait(), ended]);
  } finally {
    waiting = false;
  }
}

const env = () => emulatorEnv(h, { workspace: true });

/** `sessions live` on a pretend terminal (80x30, a raw-mode stdin): what it wrote, and a wake per write. */
function onTerminal(args: string[], extraEnv: Record<string, string>) {
  const r = {
    out: '',
    err: '',
    wake: undefined as (() => void) | undefined,
    code: undefined as unknown as Promise<number>,
  };
  const stdout = Object.assign(
    new Writable({ write: (c, _e, cb) => ((r.out += String(c)), r.wake?.(), cb()) }),
    { isTTY: true, columns: 80, rows: 30 },
  );
  const stderr = new Writable({ write: (c, _e, cb) => ((r.err += String(c)), cb()) });
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode: () => stdin,
    ref: () => stdin,
    unref: () => stdin,
  });
  r.code = run(
    ['sessions', 'live', '--persona', 'ava', ...args, '--config', '{"greeting_enabled":false}'],
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr,
      stdin: stdin as unknown as NodeJS.ReadStream,
      env: { ...env(), ...extraEnv },
    },
  );
  return r;
}

describe('sessions live: Ctrl-C', () => {
  it('says once why it ended, releases the seat and exits 130', async () => {
    let out = '';
    let err = '';
    let wake: (() => void) | undefined;
    const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), wake?.(), cb()) });
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    const code = run(
      ['sessions', 'live', '--persona', 'ava', '--config', '{"greeting_enabled":false}'],
      { stdout, stderr, env: env() },
    );
    await until(
      () => /connected to the edge/.test(out),
      () => new Promise<void>((r) => (wake = r)),
      code,
      () => out + err,
    );
    const id = /minted session (\S+)/.exec(out)![1]!;
    process.emit('SIGINT');
    expect(await code).toBe(130);
    const all = out + err;
    expect(all.match(/interrupted/g), all).toHaveLength(1);
    expect(out).toMatch(/ended: interrupted \(Ctrl-C\) after .*; seat released/);
    expect((await h.api(`/api/v1/sessions/${id}`)).body.status).toBe('ended');
  }, 30_000);
});

describe('sessions live on a terminal: Ctrl-C', () => {
  it('the view says why it ended, the line after it only the seat; exit 130', async () => {
    const t = onTerminal(['--no-mic', '--no-play'], { NO_COLOR: '1' });
    await until(
      () => /media \d+ KB/.test(t.out) && /› /.test(t.out),
      () => new Promise<void>((r) => (t.wake = r)),
      t.code,
      () => t.out + t.err,
    );
    process.emit('SIGINT');
    expect(await t.code).toBe(130);
    const text = (t.out + t.err).replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '');
    // ink redraws frames; the last frame is what stays on screen
    expect(text).toMatch(/ended: interrupted/);
    expect(text).toMatch(/session \S+: seat released\n$/);
    expect(text.slice(text.lastIndexOf('ended: interrupted')).match(/interrupted/g)).toHaveLength(
      1,
    );
    expect(t.err).toBe('');
  }, 30_000);
});

describe('sessions live on a terminal under CI', () => {
  it('prints a line per event as it happens (a view there would draw nothing until the end)', async () => {
    const t = onTerminal([], { CI: 'true' });
    await until(
      () => /connected to the edge/.test(t.out),
      () => new Promise<void>((r) => (t.wake = r)),
      t.code,
      () => t.out + t.err,
    );
    expect(t.out).toMatch(/^\[ *[\d.]+s\] minted session /m);
    // no mic opened and no player chosen by default: a CI job has neither; with nothing to
    // say (no --say, no input) a note says so, naming the ways to talk
    expect(t.out).toMatch(/note: nothing will be said in this session/);
    expect(t.out.replace(/note: nothing will be said[\s\S]*?Ctrl-C ends it/, '')).not.toMatch(
      /mic|play/i,
    );
    process.emit('SIGINT');
    expect(await t.code).toBe(130);
    expect(t.out).toMatch(/ended: interrupted \(Ctrl-C\)/);
  }, 30_000);
});
