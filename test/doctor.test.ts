import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { cli, emulatorEnv, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/** `avatar doctor` against the emulator itself: the contract's own server matches it. */
/** An avatar with a version and a profile, so the ids of nested routes come from their lists. */
const seed = join(mkdtempSync(join(tmpdir(), 'doctor-seed-')), 'seed.yaml');
writeFileSync(
  seed,
  [
    'default_workspace:',
    '  avatars:',
    '    - name: Leo for the doctor',
    '      source_persona: leo',
    '      system_prompt: You are Leo.',
    '      profiles:',
    '        - system_prompt: You are Leo at night.',
  ].join('\n'),
);

describe('avatar doctor against the emulator', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0, seed });

  it('every probed GET matches, a table in 80 columns, exit 0', async () => {
    const r = await cli(['doctor'], emulatorEnv(h));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.every((l) => l.length <= 80)).toBe(true);
    expect(r.stdout).toMatch(/^gallery\.list +ok {4}200, body matches$/m);
    expect(r.stdout).toMatch(/^workspaces\.get +ok {4}200, body matches$/m);
    // Ids in paths come from the list one level up: avatar, its version, its profile.
    for (const id of ['avatars.get', 'versions.get.ws', 'profiles.show'])
      expect(r.stdout).toMatch(
        new RegExp(`^${id.replace(/\./g, '\\.')} +ok {4}200, body matches$`, 'm'),
      );
    // A version without a voice sample: its documented 404 in the envelope is no mismatch.
    expect(r.stdout).toMatch(/^versions\.voice-sample +ok {4}404 not_found \(documented\)$/m);
    // A binary answer is checked by its declared content type.
    expect(r.stdout).toMatch(/^gallery\.face +ok {4}200, image\/png, \d+ bytes$/m);
    // Nothing passes silently: a skip says why.
    expect(r.stdout).toMatch(/^sessions\.get +skip {2}skipped: needs \{sessionId\}/m);
    expect(r.stdout).toMatch(/^internal \(\d+ GETs\) +skip {2}skipped: the box API/m);
    expect(r.stdout).toMatch(/^live +skip {2}skipped: writes a session; --live$/m);
    expect(r.stdout).not.toMatch(/FAIL/);
    expect(lines.at(-1)).toMatch(
      /^\d+ ok, 0 mismatched, \d+ skipped against http:\/\/127\.0\.0\.1:\d+$/,
    );
  });

  it('--json: ok, counts and one record per check; the operator routes with the operator credential', async () => {
    const r = await cli(['--json', 'doctor'], emulatorEnv(h));
    expect(r.code).toBe(0);
    const report = r.json();
    expect(report).toMatchObject({ ok: true, base_url: h.baseUrl, counts: { fail: 0 } });
    const byCheck = new Map(report.checks.map((c: { check: string }) => [c.check, c]));
    expect(byCheck.get('jwks.get')).toEqual({
      check: 'jwks.get',
      method: 'GET',
      path: '/.well-known/jwks.json',
      status: 200,
      result: 'ok',
      detail: '200, body matches',
    });
    expect(byCheck.get('emulator.clock')).toMatchObject({ result: 'ok', status: 200 });
    expect(report.counts.ok).toBe(
      report.checks.filter((c: { result: string }) => c.result === 'ok').length,
    );
  });

  it('a key with one scope: what it may not call is a skip with the 403, the operator routes one skip row', async () => {
    const made = await h.fetch('/api/v1/tokens', {
      key: h.emu.keys.secretKey,
      method: 'POST',
      body: JSON.stringify({ name: 'reader', scopes: ['avatars:read'] }),
    });
    const { token } = (await made.json()) as { token: string };
    const r = await cli(['--json', 'doctor'], emulatorEnv(h, { env: { AVATAR_API_KEY: token } }));
    expect(r.code).toBe(0);
    const checks: { check: string; result: string; detail: string }[] = r.json().checks;
    const row = (id: string) => checks.find((c) => c.check === id);
    expect(row('avatars.list')).toMatchObject({ result: 'ok' });
    expect(row('tokens.list')).toMatchObject({
      result: 'skip',
      detail: 'the key may not call it: 403 forbidden',
    });
    expect(checks.find((c) => c.check.startsWith('operator'))).toMatchObject({
      result: 'skip',
      detail: expect.stringMatching(/not this emulator's operator credential \(40[13]\)/),
    });
    expect(row('emulator.clock')).toBeUndefined();
  });

  it('--live: one session per protocol, every frame matches the edge messages, both released', async () => {
    const r = await cli(['--json', 'doctor', '--live'], emulatorEnv(h));
    expect(r.code).toBe(0);
    const checks: { check: string; result: string; detail: string }[] = r.json().checks;
    const live = checks.filter((c) => c.check.startsWith('live v'));
    expect(live.map((c) => [c.check, c.result])).toEqual([
      ['live v1 mint', 'ok'],
      ['live v1 POST /chat', 'ok'],
      ['live v1 turn', 'ok'],
      ['live v1 /mse', 'ok'],
      ['live v1 /mic_stream', 'ok'],
      ['live v1 /events', 'ok'],
      ['live v1 release', 'ok'],
      ['live v2 mint', 'ok'],
      ['live v2 turn', 'ok'],
      ['live v2 /v2/session', 'ok'],
      ['live v2 release', 'ok'],
    ]);
    const v2 = live.find((c) => c.check === 'live v2 /v2/session')!;
    expect(v2.detail).toMatch(/^\d+ frames match: V2SessionMessage 1, .*TurnMessage/);
    expect(live.find((c) => c.check === 'live v1 /mse')!.detail).toMatch(
      /MseInit 1, MediaSegment \d+/,
    );
    // No seat left behind: the emulator has no live session.
    const sessions = await (await h.op('/_emulator/sessions')).json();
    expect(sessions.data).toEqual([]);
  });

  it('a refused key: exit 3 with what to do, and --json does not call it ok', async () => {
    const r = await cli(['doctor'], emulatorEnv(h, { env: { AVATAR_API_KEY: 'sk_live_wrong' } }));
    expect(r.code).toBe(3);
    expect(r.stderr.replace(/\s+/g, ' ')).toMatch(
      /refused the key sk_live_… \(401\) on every keyed route/,
    );
    const j = await cli(
      ['--json', 'doctor'],
      emulatorEnv(h, { env: { AVATAR_API_KEY: 'sk_live_wrong' } }),
    );
    expect(j.code).toBe(3);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, key_refused: true });
  });

  it('an empty --say is a usage error, before anything is sent', async () => {
    const r = await cli(['doctor', '--live', '--say', ' '], emulatorEnv(h));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--say must be a non-empty line/);
  });

  it('a URL that is not the service (a path under it): exit 5 saying so, not a list of mismatches', async () => {
    const r = await cli(['doctor', '--base-url', `${h.baseUrl}/api`], emulatorEnv(h));
    expect(r.code).toBe(5);
    expect(r.stderr.replace(/\s+/g, ' ')).toMatch(
      /nothing at http:\/\/127\.0\.0\.1:\d+\/api looks like the avatar service/,
    );
    expect(r.stdout).not.toMatch(/FAIL/);
  });

  it('an unreachable service: exit 5', async () => {
    // A port that was just free: listen on port 0, then close.
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
    await new Promise((r) => gone.close(r));
    const r = await cli(['doctor', '--base-url', url], isolatedEnv({ AVATAR_API_KEY: 'sk_x' }));
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});
