import { PassThrough, Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** Tool events in the ink view of `sessions live` (docs/tools.md "CLI"): a pretend terminal. */
// ink decides at import, from process.env, to draw nothing but the last frame under CI:
// this process plays a terminal that is not one.
for (const k of ['CI', 'CONTINUOUS_INTEGRATION']) delete process.env[k];

const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
beforeAll(async () => {
  await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/builtin-servers/svc.image`, {
    method: 'PUT',
    body: { enabled: true },
  });
});

const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[a-zA-Z]/g, '');

describe('sessions live on a terminal: tool events', () => {
  it('the view shows the call (calling), the picture with its caption and URL, then the follow-up line', async () => {
    let out = '';
    let err = '';
    let wake: (() => void) | undefined;
    const stdout = Object.assign(
      new Writable({ write: (c, _e, cb) => ((out += String(c)), wake?.(), cb()) }),
      { isTTY: true, columns: 120, rows: 40 },
    );
    const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
    const stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      setRawMode: () => stdin,
      ref: () => stdin,
      unref: () => stdin,
    });
    const code = run(
      [
        'sessions',
        'live',
        '--persona',
        'ava',
        '--no-mic',
        '--no-play',
        '--config',
        '{"greeting_enabled":false}',
        '--tools',
        '{"servers":["svc.image"]}',
        '--say',
        'Please draw a picture of a lighthouse at night.',
      ],
      {
        stdout: stdout as unknown as NodeJS.WriteStream,
        stderr,
        stdin: stdin as unknown as NodeJS.ReadStream,
        env: {
          ...emulatorEnv(h, { workspace: true }),
          NO_COLOR: '1',
        },
      },
    );
    let ended = false;
    void code.then(() => (ended = true));
    const shown = () => /avatar: Here is the picture: a lighthouse at night\./.test(plain(out));
    while (!shown() && !ended)
      await Promise.race([new Promise<void>((r) => (wake = r)), code.then(() => undefined)]);
    expect(ended, plain(out) + err).toBe(false);
    process.emit('SIGINT');
    expect(await code).toBe(130);
    const text = plain(out);
    // the last frame drawn before the end: the transcript in order
    const frame = text.slice(text.lastIndexOf('you: Please draw'));
    const order = [
      'you: Please draw a picture of a lighthouse at night.',
      'tool: generate_image: calling',
      'tool: generate_image: image — a lighthouse at night',
      'avatar: Here is the picture: a lighthouse at night.',
    ].map((s) => frame.indexOf(s));
    expect(
      order.every((i) => i >= 0),
      frame,
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(frame).toMatch(/\/_box\/images\/[0-9a-f]{32}\.png/);
    expect(err).toBe('');
  }, 60_000);
});
