import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { queueStatusLine } from '../src/cli/live/queue-line.js';

/**
 * Issue 24: what a reader meets when they paste the docs' commands (the product half; the
 * docs half is test/docs-examples.test.ts).
 */
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('cannot reach the service: the error says what chose the URL and how to go back', () => {
  it('a default profile: names it, and avatar config remove / use', async () => {
    const env = isolatedEnv();
    expect(
      (
        await cli(
          [
            '--base-url',
            'http://127.0.0.1:1',
            '--api-key',
            'avatar_x.y',
            'config',
            'set',
            'prod',
            '--default',
          ],
          env,
        )
      ).code,
    ).toBe(0);
    const r = await cli(['gallery', 'list'], env);
    expect(r.code).toBe(5);
    expect(flat(r.stderr)).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    expect(flat(r.stderr)).toMatch(/the default profile prod chose this URL/);
    expect(flat(r.stderr)).toContain('config remove prod');
    expect(flat(r.stderr)).toContain('config use NAME');
  });

  it('a named profile, the environment and the flag are each named', async () => {
    const env = isolatedEnv();
    await cli(['--base-url', 'http://127.0.0.1:1', 'config', 'set', 'stage'], env);
    expect(flat((await cli(['--profile', 'stage', 'gallery', 'list'], env)).stderr)).toMatch(
      /the profile stage \(--profile\) chose this URL/,
    );
    expect(
      flat(
        (
          await cli(['gallery', 'list'], {
            ...isolatedEnv(),
            AVATAR_BASE_URL: 'http://127.0.0.1:1',
          })
        ).stderr,
      ),
    ).toMatch(/AVATAR_BASE_URL chose this URL; unset it/);
    expect(
      flat(
        (await cli(['--base-url', 'http://127.0.0.1:1', 'gallery', 'list'], isolatedEnv())).stderr,
      ),
    ).toMatch(/the --base-url flag chose this URL/);
  });
});

describe('a missing required flag', () => {
  it('says "--name is required", not the validator text', async () => {
    const r = await cli(
      ['--base-url', 'http://127.0.0.1:1', '--workspace', 'ws', 'tokens', 'create'],
      isolatedEnv(),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --name is required/);
    expect(r.stderr).not.toMatch(/Invalid input|received undefined/);
  });
});

describe('with an emulator', () => {
  const h = useEmulator({
    inferenceUpstreams: { 'big-chat': { baseUrl: 'http://127.0.0.1:9/v1' } },
  });
  const env = () => emulatorEnv(h, { workspace: true });

  it('tools validate: an unknown field lists the allowed ones; --json has the documented detail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-tools-'));
    writeFileSync(join(dir, 'tools.json'), JSON.stringify({ inline: [], tool: 'x' }));
    const r = await cli(['tools', 'validate', 'tools.json'], env(), dir);
    expect(r.code).toBe(3);
    expect(flat(r.stderr)).toMatch(
      /unknown_tools_field:tool .*allowed: servers, inline, allow, max_calls, history/,
    );
    const j = await cli(['--json', 'tools', 'validate', 'tools.json'], env(), dir);
    expect(JSON.parse(j.stderr)).toMatchObject({
      error: 'unknown_tools_field:tool',
      status: 400,
      detail: expect.stringMatching(/tools\.tool.*servers, inline, allow, max_calls, history/),
    });
    writeFileSync(join(dir, 'bad.json'), '{');
    const bad = await cli(['--json', 'tools', 'validate', 'bad.json'], env(), dir);
    expect(Object.keys(JSON.parse(bad.stderr)).sort()).toEqual([
      'detail',
      'error',
      'message',
      'status',
    ]);
  });

  it('sessions mint --data with a guessed field names the right one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-mint-'));
    writeFileSync(join(dir, 'mint.json'), JSON.stringify({ persona: 'ava', cap_seconds: 120 }));
    const r = await cli(['sessions', 'mint', '--data', '@mint.json'], env(), dir);
    expect(r.code).toBe(2);
    expect(flat(r.stderr)).toMatch(
      /cap_seconds is not a mint field; did you mean session_cap_seconds\?/,
    );
  });

  it('gallery intro -o reports on stdout, as speak, tts and images do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-intro-'));
    const r = await cli(['gallery', 'intro', 'ava', '-o', 'ava.mp4'], env(), dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^wrote ava\.mp4 \(\d+ bytes/);
    expect(r.stderr).toBe('');
  });

  it('models lists the --inference-upstream ids that /compat-a/v1/models lists', async () => {
    const r = await cli(['models'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/big-chat/);
    expect(r.stdout).toMatch(/avatar-chat/);
  });
});

describe('the queue line on a pipe', () => {
  it('is a new line when the position changes, not when only the measured ETA moves (docs/sessions.md)', () => {
    let err = '';
    const fake = {
      io: { stderr: { isTTY: false, write: (s: string) => (err += s) } },
      globals: () => ({}),
      note: (l: string) => (err += `${l}\n`),
    };
    const line = queueStatusLine(fake as never);
    const q = (position: number, eta: number) =>
      ({
        status: 'queued',
        state: 'waiting',
        queue_ticket: 'qt_1',
        position,
        eta_seconds: eta,
        retry_after: 3,
      }) as never;
    line.show(q(2, 150));
    line.show(q(2, 147));
    line.show(q(2, 144));
    line.show(q(1, 75));
    expect(err.trim().split('\n')).toEqual([
      'queued: position 2, about 150 s (ticket qt_1; Ctrl-C leaves the queue)',
      'queued: position 1, about 75 s (ticket qt_1; Ctrl-C leaves the queue)',
    ]);
  });
});
