import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** Ctrl-C during `sessions live` (docs/live.md "How it ends": reason `interrupted`, exit 130). */
// ink decides at import, from process.env, to draw nothing but the last frame under CI:
// this process plays a terminal that is not one.
for (const k of ['CI', 'CONTINUOUS_INTEGRATION']) delete process.env[k];

const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
/** Wait until `seen()` holds, woken by each write; fail at once, with what was said, if the run ends first. */
async function until(seen: () => boolean, wait: () => Promise<void>, code: Promise<number>, said: () => string): Promise<void> {
  let waiting = true;
  const ended = code.then((c) => {
    if (waiting) throw new Error(`the CLI ended (exit ${c}) before it showed what the test waits for:\n${said()}`);
  });
  ended.catch(() => undefined); // raced below while waiting; nobody's concern after
  try {
    while (!seen()) await Promise.race([wait(), ended]);
  } finally {
    waiting = false;
  }
}

const env = () => isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey, AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId });

describe('sessions live: Ctrl-C', () => {
  it('says once why it ended, releases the seat and exits 130', async () => {
    let out = '';
    let err = '';
    let wake: (() => void) | undefined;
    const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), wake?.(), cb()) });
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    const code = run(['sessions', 'live', '--persona', 'ava', '--config', '{"greeting_enabled":false}'], { stdout, stderr, env: env() });
    await until(() => /connected to the edge/.test(out), () => new Promise<void>((r) => (wake = r)), code, () => out + err);
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
    let out = '';
    let err = '';
    let wake: (() => void) | undefined;
    const stdout = Object.assign(new Writable({ write: (c, _e, cb) => ((out += String(c)), wake?.(), cb()) }), { isTTY: true, columns: 80, rows: 30 });
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
    const code = run(['sessions', 'live', '--persona', 'ava', '--no-mic', '--no-play', '--config', '{"greeting_enabled":false}'], {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr,
      stdin: stdin as unknown as NodeJS.ReadStream,
      env: { ...env(), NO_COLOR: '1' },
    });
    await until(() => /media \d+ KB/.test(out) && /› /.test(out), () => new Promise<void>((r) => (wake = r)), code, () => out + err);
    process.emit('SIGINT');
    expect(await code).toBe(130);
    const text = (out + err).replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '');
    // ink redraws frames; the last frame is what stays on screen
    expect(text).toMatch(/ended: interrupted/);
    expect(text).toMatch(/session \S+: seat released\n$/);
    expect(text.slice(text.lastIndexOf('ended: interrupted')).match(/interrupted/g)).toHaveLength(1);
    expect(err).toBe('');
  }, 30_000);
});

describe('sessions live on a terminal under CI', () => {
  it('prints a line per event as it happens (a view there would draw nothing until the end)', async () => {
    let out = '';
    let err = '';
    let wake: (() => void) | undefined;
    const stdout = Object.assign(new Writable({ write: (c, _e, cb) => ((out += String(c)), wake?.(), cb()) }), { isTTY: true, columns: 80, rows: 30 });
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
    const code = run(['sessions', 'live', '--persona', 'ava', '--config', '{"greeting_enabled":false}'], {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr,
      stdin: stdin as unknown as NodeJS.ReadStream,
      env: { ...env(), CI: 'true' },
    });
    await until(() => /connected to the edge/.test(out), () => new Promise<void>((r) => (wake = r)), code, () => out + err);
    expect(out).toMatch(/^\[ *[\d.]+s\] minted session /m);
    // no mic opened and no player chosen by default: a CI job has neither; with nothing to
    // say (no --say, no input) a note says so, naming the ways to talk
    expect(out).toMatch(/note: nothing will be said in this session/);
    expect(out.replace(/note: nothing will be said[\s\S]*?Ctrl-C ends it/, '')).not.toMatch(/mic|play/i);
    process.emit('SIGINT');
    expect(await code).toBe(130);
    expect(out).toMatch(/ended: interrupted \(Ctrl-C\)/);
  }, 30_000);
});
