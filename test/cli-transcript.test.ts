import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { cli, emulatorEnv, sharedRuns } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** `avatar sessions transcript` reads as the conversation it was, not as JSON in a table. */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });

async function talk(question: string): Promise<string> {
  let out = '';
  const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
  const stderr = new Writable({ write: (_c, _e, cb) => cb() });
  expect(
    await run(
      ['--json', 'sessions', 'live', '--persona', 'ava', '--say', question, '--turns', '1'],
      { stdout, stderr, env: env() },
    ),
  ).toBe(0);
  return JSON.parse(out.split('\n')[0]!).session_id as string;
}

/** `avatar ...` on a terminal of `columns` columns (a TTY-like stdout). */
const onTerminal = (argv: string[], columns: number) => cli(argv, env(), process.cwd(), columns);

/**
 * A spoken session takes its greeting and reply in real time: each question is talked
 * about once per file (the two views of one transcript read the same session), and the
 * sessions start side by side when the file does (the emulator has two seats).
 */
const talked = sharedRuns(talk);

describe('avatar sessions transcript', () => {
  // Longer than an 80-column line, so a terminal wraps it and a pipe does not.
  const question =
    'Hello there, who are you, what do you help people with most days, and how would I invite the rest of my team to the app?';
  beforeAll(() => {
    void talked(question);
    void talked('Hi.');
  });

  it('prints who said what, in order, wrapped to an 80-column terminal under the text column; --json keeps the body', async () => {
    const id = await talked(question);
    const human = await onTerminal(['sessions', 'transcript', id], 80);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(/\{"seq"/);
    expect(human.stdout).toMatch(new RegExp(`session ${id} · 2 turns · source store`));
    const lines = human.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    // The question wraps: its next line continues under the text, past `you:    `.
    const you = lines.findIndex((l) => l.startsWith('you:    Hello there,'));
    expect(lines[you]!.length).toBeGreaterThan(60);
    expect(lines[you + 1]).toMatch(/^ {8}\S/);
    const flat = human.stdout.replace(/\n {2,}/g, ' ');
    // the greeting has no user line; the typed question comes before its reply
    expect(flat).toContain(`you:    ${question}\n`);
    expect(flat).toMatch(
      /avatar: Hello, I'm Ava\. What would you like to talk about\?\n.*you: {4}Hello there, .*\n.*avatar: \S/s,
    );

    const json = await cli(['--json', 'sessions', 'transcript', id], env());
    expect(json.json()).toMatchObject({
      session_id: id,
      source: 'store',
      count: 2,
      turns: [
        { seq: 0, user_text: '' },
        { seq: 1, user_text: question },
      ],
    });
  }, 60_000); // its session runs beside the erased one's, started with the file

  it('on a pipe each turn is one whole line (for grep), however long', async () => {
    const id = await talked(question);
    const piped = await cli(['sessions', 'transcript', id], env());
    expect(piped.code, piped.stderr).toBe(0);
    const lines = piped.stdout.split('\n');
    expect(lines).toContain(`you:    ${question}`);
    const reply = lines[lines.indexOf(`you:    ${question}`) + 1]!;
    expect(reply).toMatch(/^avatar: \S/);
    // No continuation lines anywhere: every line after the head is blank, `you:` or `avatar:`.
    for (const line of lines.slice(1)) expect(line, line).toMatch(/^(|you: {4}\S.*|avatar: \S.*)$/);
  }, 30_000);

  it('an erased session says so', async () => {
    const id = await talked('Hi.');
    expect((await cli(['sessions', 'delete', id], env())).code).toBe(0);
    const human = await cli(['sessions', 'transcript', id], env());
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`session ${id}: erased \\(no turns kept\\)`));
  }, 30_000);
});
