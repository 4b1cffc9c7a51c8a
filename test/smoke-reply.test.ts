import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * A passing `avatar smoke` reads as a pass: its typed turn is a question every persona
 * answers ("who are you?"), so the turn line shows the persona's own answer, not the
 * brain's "I'm sorry, I don't know that" to "This is a smoke test" (the trial of issue 8).
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });

describe('avatar smoke, passing', () => {
  it('the turn step shows the persona answering who it is', async () => {
    const r = await cli(['smoke', '--persona', 'leo'], env());
    expect(r.code).toBe(0);
    const turn = r.stdout.split('\n').find((l) => /^ok +turn /.test(l))!;
    expect(turn).toMatch(/reply: .*Leo/);
    expect(turn).not.toMatch(/don't know/);
  }, 60_000);
});

describe('avatar smoke on an 80-column terminal', () => {
  it('every line fits; a long detail continues under the detail column', async () => {
    let out = '';
    const stdout = Object.assign(
      new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) }),
      { isTTY: true, columns: 80 },
    );
    const stderr = new Writable({ write: (_c, _e, cb) => cb() });
    const code = await run(['smoke'], {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr,
      env: { ...env(), NO_COLOR: '1' },
    });
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(79);
    // The mint detail (session id, edge URL, cap) is longer than the room beside the step.
    const mint = lines.findIndex((l) => /^ok +mint /.test(l));
    expect(lines[mint]).toMatch(/^ok   mint +\d+ ms  session [0-9a-f-]{36}/);
    expect(lines[mint + 1]).toMatch(/^ {28}\S/);
    expect(lines.at(-1)).toMatch(/^smoke passed: 7 steps in \d+ ms$/);
  }, 60_000);
});
