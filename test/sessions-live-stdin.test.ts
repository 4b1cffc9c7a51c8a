import { PassThrough, Readable, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/cli/main.js';
import { emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { waitUntil } from './helpers/wait.js';

/**
 * `printf 'Hello\nWho are you?\n' | avatar sessions live --persona ava`: lines piped in are
 * typed turns, sent one at a time like --say, and the session ends once the last one has
 * been answered (it used to sit silent until the cap). Brain-only sessions keep it quick:
 * the pacing of turns against spoken replies is the --say tests' (sessions-live.test.ts).
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });
const brainOnly = ['--config', '{"render": false}'];

function collect() {
  let text = '';
  const stream = new Writable({ write: (c, _e, cb) => ((text += String(c)), cb()) });
  return { stream, text: () => text };
}

async function live(args: string[], stdin: NodeJS.ReadableStream) {
  const out = collect();
  const err = collect();
  const code = await run(args, { stdout: out.stream, stderr: err.stream, stdin, env: env() });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('sessions live with lines piped to stdin', () => {
  it('each line is a typed turn, in order, and the session ends once the last is answered', async () => {
    const r = await live(
      ['--json', 'sessions', 'live', '--persona', 'ava', ...brainOnly],
      Readable.from(['Hello there\nWhat can you do?\n', '\n']),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.event === 'said').map((e) => e.text)).toEqual([
      'Hello there',
      'What can you do?',
    ]);
    expect(events.filter((e) => e.event === 'turn' && !e.greeting).map((e) => e.text)).toEqual([
      'Hello there',
      'What can you do?',
    ]);
    expect(events.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      detail: 'end of input',
      turns: 2,
      released: true,
    });
    // Said once, in words, with the edge's code for scripts.
    expect(events.find((e) => e.event === 'notice').message).toBe(
      'brain-only session (config.render false): replies come as text, with no media (render_disabled)',
    );
    const session = (await h.api(`/api/v1/sessions/${events[0].session_id}/transcript`)).body;
    expect(session.turns.map((t: { user_text: string }) => t.user_text).filter(Boolean)).toEqual([
      'Hello there',
      'What can you do?',
    ]);
  }, 30_000);

  it('a line that arrives later, after the avatar has gone quiet, is still sent; the end waits for the input to end', async () => {
    const stdin = new PassThrough();
    const out = collect();
    const done = run(['--json', 'sessions', 'live', '--persona', 'ava', ...brainOnly], {
      stdout: out.stream,
      stderr: collect().stream,
      stdin,
      env: env(),
    });
    const events = () =>
      out
        .text()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    stdin.write('Hello there\n');
    await waitUntil(
      () => events().some((e) => e.event === 'turn' && e.text === 'Hello there'),
      20_000,
      'the turn of the first line',
    );
    // Answered, nothing more typed yet, the pipe still open: a session that ended here
    // would never send the next line.
    stdin.end('Who are you?\n');
    expect(await done).toBe(0);
    expect(
      events()
        .filter((e) => e.event === 'said')
        .map((e) => e.text),
    ).toEqual(['Hello there', 'Who are you?']);
    expect(events().at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      detail: 'end of input',
      turns: 2,
    });
  }, 30_000);

  it('--turns asking for more than --say gives, with no mic and an empty stdin: it ends after the last line instead of waiting for the cap', async () => {
    const r = await live(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--say',
        'Hi',
        '--turns',
        '2',
        ...brainOnly,
      ],
      Readable.from([]),
    );
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      detail: 'end of input: 1 of 2 turns',
      turns: 1,
      released: true,
    });
  }, 30_000);

  it('an empty stdin (</dev/null in CI) changes nothing: --say and --turns decide', async () => {
    const r = await live(
      [
        '--json',
        'sessions',
        'live',
        '--persona',
        'ava',
        '--say',
        'Hi',
        '--turns',
        '1',
        ...brainOnly,
      ],
      Readable.from([]),
    );
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.at(-1)).toMatchObject({
      event: 'ended',
      reason: 'turns_done',
      detail: '1 turn',
      turns: 1,
    });
  }, 30_000);
});

describe('nothing to say', () => {
  it('no mic, no --say, no --mic-file and an empty stdin: a note says nothing will be said and how to end or talk', async () => {
    const out = collect();
    const done = run(['--json', 'sessions', 'live', '--persona', 'ava', ...brainOnly], {
      stdout: out.stream,
      stderr: collect().stream,
      stdin: Readable.from([]),
      env: env(),
    });
    const events = () =>
      out
        .text()
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    await vi.waitFor(
      () =>
        expect(
          events().some((e) => e.event === 'notice' && /nothing will be said/.test(e.message)),
        ).toBe(true),
      { timeout: 10_000 },
    );
    const note = events().find(
      (e) => e.event === 'notice' && /nothing will be said/.test(e.message),
    );
    expect(note.message).toMatch(/--say, --mic-file, --mic or lines on stdin/);
    expect(note.message).toMatch(/Ctrl-C ends it/);
    process.emit('SIGINT');
    expect(await done).toBe(130);
  }, 30_000);
});
