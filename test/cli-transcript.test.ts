import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli/main.js';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** `avatar sessions transcript` reads as the conversation it was, not as JSON in a table. */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey, AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId });

async function talk(question: string): Promise<string> {
  let out = '';
  const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
  const stderr = new Writable({ write: (_c, _e, cb) => cb() });
  expect(await run(['--json', 'sessions', 'live', '--persona', 'ava', '--say', question, '--turns', '1'], { stdout, stderr, env: env() })).toBe(0);
  return JSON.parse(out.split('\n')[0]!).session_id as string;
}

describe('avatar sessions transcript', () => {
  it('prints who said what, in order, wrapped to the terminal; --json keeps the body', async () => {
    const question = 'Hello there, who are you and what do you help people with most days?';
    const id = await talk(question);
    const human = await cli(['sessions', 'transcript', id], env());
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).not.toMatch(/\{"seq"/);
    expect(human.stdout).toMatch(new RegExp(`session ${id} · 2 turns · source store`));
    const flat = human.stdout.replace(/\n {2,}/g, ' ');
    // the greeting has no user line; the typed question comes before its reply
    expect(flat).toMatch(/avatar: Hello, I'm Ava\. What would you like to talk about\?\n.*you: {4}Hello there, who are you and what do you help people with most days\?\n.*avatar: \S/s);
    for (const line of human.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);

    const json = await cli(['--json', 'sessions', 'transcript', id], env());
    expect(json.json()).toMatchObject({ session_id: id, source: 'store', count: 2, turns: [{ seq: 0, user_text: '' }, { seq: 1, user_text: question }] });
  }, 30_000);

  it('an erased session says so', async () => {
    const id = await talk('Hi.');
    expect((await cli(['sessions', 'delete', id], env())).code).toBe(0);
    const human = await cli(['sessions', 'transcript', id], env());
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`session ${id}: erased \\(no turns kept\\)`));
  }, 30_000);
});
