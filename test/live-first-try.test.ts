import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatApiError } from '../src/cli/errors.js';
import { interruptedNote, textLine, wrapLogLine } from '../src/cli/live/live-log.js';
import { cli, isolatedEnv } from './helpers/cli.js';

/**
 * Mistakes a new app developer makes on a first try of `sessions live` and `demo` (the
 * trial of issue 8), answered before anything is minted or started. Nothing listens on
 * port 1: a command that got as far as the network would exit 5, not 2.
 */
const nowhere = () =>
  isolatedEnv({
    AVATAR_BASE_URL: 'http://127.0.0.1:1',
    AVATAR_API_KEY: 'avatar_00000000.' + '0'.repeat(56),
  });
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ');

describe('object flags of the mint (--config, --context, ...) that are not JSON', () => {
  it('--config with unquoted keys is a usage error naming the flag, before any mint (exit 2)', async () => {
    const r = await cli(
      ['sessions', 'live', '--persona', 'ava', '--say', 'hi', '--config', '{render: false}'],
      nowhere(),
    );
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/--config is not valid JSON .*\{render: false\}/);
    expect(oneLine(r.stderr)).toMatch(/e\.g\. --config '\{"render": false\}'/);
  });

  it('the same for sessions mint and a JSON array where an object goes', async () => {
    const r = await cli(
      ['sessions', 'mint', '--persona', 'ava', '--context', '{"system_prompt": "x",}'],
      nowhere(),
    );
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/--context is not valid JSON/);
  });

  it('a plain word is still sent as text (the service names the problem)', async () => {
    // Not JSON-looking: left to the service, which answers invalid_config with detail.
    const r = await cli(
      ['sessions', 'live', '--persona', 'ava', '--say', 'hi', '--config', 'render=false'],
      nowhere(),
    );
    expect(r.code).toBe(5);
  });
});

describe('avatar demo with an explicit service that does not answer', () => {
  it('--base-url that cannot be reached is an error (exit 5), not a silent in-process emulator', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'avatar-demo-nowhere-'));
    const r = await cli(['--base-url', 'http://127.0.0.1:1', 'demo'], isolatedEnv(), cwd);
    expect(r.code).toBe(5);
    expect(r.stdout).not.toMatch(/in-process emulator/);
    expect(oneLine(r.stderr)).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1/);
    expect(oneLine(r.stderr)).toMatch(/--in-process/);
  });

  it('with --json the failure is the documented network envelope (docs/cli.md), not cli_error', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'avatar-demo-nowhere-'));
    const r = await cli(['--json', 'demo'], nowhere(), cwd);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: 'network',
      message: expect.stringMatching(/cannot reach http:\/\/127\.0\.0\.1:1/),
    });
  });

  it('AVATAR_BASE_URL counts as explicit too', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'avatar-demo-nowhere-'));
    const r = await cli(['demo'], nowhere(), cwd);
    expect(r.code).toBe(5);
    expect(r.stdout).not.toMatch(/in-process emulator/);
  });
});

describe('the line view', () => {
  it('the ended line says the number of turns once', () => {
    const line = textLine({
      event: 'ended',
      reason: 'turns_done',
      detail: '1 turn',
      duration_s: 10,
      turns: 1,
      media_bytes: 1,
      released: true,
      t: 10,
    })!;
    expect(line).toBe(
      '[ 10.0s] ended: the requested turns are done after 10.0 s, 1 turn; seat released',
    );
    const capped = textLine({
      event: 'ended',
      reason: 'cap_reached',
      detail: 'session_cap: 300 s',
      duration_s: 300,
      turns: 2,
      media_bytes: 1,
      released: true,
      t: 300,
    })!;
    expect(capped).toMatch(
      /ended: the session cap was reached \(session_cap: 300 s\) after 300\.0 s, 2 turns/,
    );
  });

  it('the greeting\'s media is named as such, so "reply" is the answer to what you said', () => {
    expect(
      textLine({
        event: 'reply_media',
        seq: 1,
        bytes: 124_220,
        segments: 30,
        spoken: true,
        greeting: true,
        t: 4.8,
      }),
    ).toBe('[  4.8s] greeting media: 121.3 KB in 30 fragments');
    expect(
      textLine({ event: 'reply_media', seq: 2, bytes: 132_096, segments: 34, spoken: true, t: 10 }),
    ).toBe('[ 10.0s] reply media: 129.0 KB in 34 fragments');
  });

  it('a reply cut by barge-in says which, and what of it was said (or that nothing was)', () => {
    expect(interruptedNote(true, '')).toBe(
      'the greeting was cut short (barge-in: you spoke or typed) before a word of it was said',
    );
    expect(interruptedNote(false, 'I can help with')).toBe(
      'the reply was cut short (barge-in: you spoke or typed); said: "I can help with"',
    );
  });

  it('a long line wraps at word boundaries within the width, continued under the text', () => {
    const reply =
      'I can chat with you and answer questions from what I know about myself, for example about accounts, settings, or invitations.';
    const out = wrapLogLine(
      textLine({ event: 'turn', seq: 2, text: '', reply, greeting: true, t: 9.2 })!,
      80,
    );
    const lines = out.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(79);
    expect(lines[0]).toMatch(/^\[  9\.2s\] avatar: I can chat/);
    expect(lines[1]).toMatch(/^ {9}\S/);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(`[  9.2s] avatar: ${reply}`);
    // Each line of a two-line event wraps on its own.
    const turn = wrapLogLine(
      textLine({ event: 'turn', seq: 2, text: 'hello', reply, t: 9.2 })!,
      80,
    ).split('\n');
    expect(turn[0]).toBe('[  9.2s] you: hello');
    expect(turn[1]).toMatch(/^\[  9\.2s\] avatar: I can chat/);
  });
});

describe('a persona that does not exist', () => {
  it("the service's 404 is followed by where the stock personas are listed", () => {
    const e = {
      name: 'ApiResponseError' as const,
      status: 404,
      code: 'not_found',
      body: { error: 'not_found', message: 'persona nobody not found' },
      headers: {},
    };
    expect(formatApiError(e)).toBe(
      'error: not_found (HTTP 404) — persona nobody not found\n  the stock personas: avatar gallery list',
    );
    // Other 404s get no such line.
    expect(
      formatApiError({ ...e, body: { error: 'not_found', message: 'session x not found' } }),
    ).toBe('error: not_found (HTTP 404) — session x not found');
  });
});

describe('avatar edge start with a control plane that does not answer', () => {
  it('names the URL and why (ECONNREFUSED), not fetch\'s "fetch failed" (exit 5)', async () => {
    // A port that was free a moment ago (fetch refuses port 1 itself, as a "bad port").
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise((r) => server.close(r));
    const r = await cli(
      ['edge', 'start', '--control-plane', `http://127.0.0.1:${port}`],
      isolatedEnv({ AVATAR_API_KEY: 'op_any_key_at_all' }),
    );
    expect(r.code).toBe(5);
    expect(oneLine(r.stderr)).toMatch(
      new RegExp(
        `cannot reach the control plane at http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\); is the emulator running\\?`,
      ),
    );
    expect(r.stderr).not.toMatch(/fetch failed/);
  });
});
