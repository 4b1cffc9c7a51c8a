import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { run } from '../src/cli/main.js';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { openRecordedMic } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * How an operator gets a `recording: true` session's captures from the CLI (docs/edge.md,
 * "Recording"): `avatar sessions recordings <id>` lists them, `-o DIR` saves them. It used
 * to take curl on `/_emulator/sessions/{id}/recordings`, which docs/live.md never named.
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h, { workspace: true });
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ');

describe('avatar sessions recordings', () => {
  it('after a recorded live session: the end says how to get the captures, the list names them, -o saves them whole', async () => {
    const live = await cli(
      [
        'sessions',
        'live',
        '--persona',
        'ava',
        '--recording',
        '--say',
        'Hello there',
        '--turns',
        '1',
        '--config',
        '{"render": false}',
      ],
      env(),
    );
    expect(live.code).toBe(0);
    const id = /minted session (\S+)/.exec(live.stdout)![1]!;
    expect(oneLine(live.stderr)).toContain(
      `recorded on the box: avatar sessions recordings ${id} -o DIR`,
    );

    const list = await cli(['sessions', 'recordings', id], env());
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/mic\.wav\s+audio\/wav\s+\d+/);
    expect(list.stdout).toMatch(/kept until 20\d\d-\d\d-\d\d/);

    // -o creates the folder (issue 24 item 3: the docs' `-o captures` was refused before).
    const dir = join(mkdtempSync(join(tmpdir(), 'avatar-recordings-')), 'captures', 'today');
    const save = await cli(['sessions', 'recordings', id, '-o', dir], env());
    expect(save.code).toBe(0);
    const listed = (await h.api(`/_emulator/sessions/${id}/recordings`)).body.data as {
      name: string;
      bytes: number;
    }[];
    for (const f of listed) {
      expect(statSync(join(dir, f.name)).size).toBe(f.bytes);
      expect(save.stdout).toContain(join(dir, f.name));
    }
    // The saved mic capture is a WAV file (RIFF header), 16 kHz as docs/edge.md says.
    const wav = readFileSync(join(dir, 'mic.wav'));
    expect(wav.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(16_000);

    const json = await cli(['--json', 'sessions', 'recordings', id], env());
    expect(json.json().data.map((f: { name: string }) => f.name)).toEqual(
      listed.map((f) => f.name),
    );
  }, 30_000);

  it('observability: true alone records (spec 4.5, deprecated alias); with recording: false it does not, and the end says nothing of captures', async () => {
    const alias = await cli(
      [
        'sessions',
        'live',
        '--persona',
        'ava',
        '--observability',
        '--say',
        'Hi',
        '--turns',
        '1',
        '--config',
        '{"render": false}',
      ],
      env(),
    );
    const aliasId = /minted session (\S+)/.exec(alias.stdout)![1]!;
    expect(oneLine(alias.stderr)).toContain(
      `recorded on the box: avatar sessions recordings ${aliasId}`,
    );
    expect((await cli(['sessions', 'recordings', aliasId], env())).code).toBe(0);
    const both = await cli(
      [
        'sessions',
        'live',
        '--persona',
        'ava',
        '--observability',
        '--no-recording',
        '--say',
        'Hi',
        '--turns',
        '1',
        '--config',
        '{"render": false}',
      ],
      env(),
    );
    const bothId = /minted session (\S+)/.exec(both.stdout)![1]!;
    expect(both.stderr).not.toMatch(/recordings/);
    expect((await cli(['sessions', 'recordings', bothId], env())).code).toBe(3);
  }, 30_000);

  it('during a recorded session the list is empty and says the captures come at its end (no made-up retention date)', async () => {
    const { m, mic } = await openRecordedMic(h.api);
    mic.ws.send(Buffer.alloc(3200));
    const list = await cli(['sessions', 'recordings', m.session_id], env());
    expect(list.code).toBe(0);
    expect(list.stdout).not.toMatch(/mic\.wav|kept until/);
    expect(oneLine(list.stdout)).toContain(
      'the session has not ended: its captures are listed once it has',
    );
    mic.close();
  }, 30_000);

  it('a session that was not recorded: the service says so (exit 3), creating no folder; -o naming a file is a usage error first', async () => {
    const live = await cli(
      [
        'sessions',
        'live',
        '--persona',
        'ava',
        '--say',
        'Hi',
        '--turns',
        '1',
        '--config',
        '{"render": false}',
      ],
      env(),
    );
    const id = /minted session (\S+)/.exec(live.stdout)![1]!;
    expect(live.stderr).not.toMatch(/recordings/);
    const r = await cli(['sessions', 'recordings', id], env());
    expect(r.code).toBe(3);
    expect(oneLine(r.stderr)).toMatch(/not_found .*no recordings for session/);
    const nowhere = join(mkdtempSync(join(tmpdir(), 'avatar-recordings-')), 'captures');
    expect((await cli(['sessions', 'recordings', id, '-o', nowhere], env())).code).toBe(3);
    expect(existsSync(nowhere)).toBe(false);
    const file = join(mkdtempSync(join(tmpdir(), 'avatar-recordings-')), 'a-file');
    writeFileSync(file, 'x');
    const notDir = await cli(['sessions', 'recordings', id, '-o', file], env());
    expect(notDir.code).toBe(2);
    expect(oneLine(notDir.stderr)).toMatch(/-o .*a-file: not a folder/);
  }, 30_000);
});

describe('avatar edge start says where its captures go, and that it stopped', () => {
  it('the banner names the captures folder (or that there is none without --data); Ctrl-C ends with a line saying it stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'avatar-edge-data-'));
    let out = '';
    const stdout = new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) });
    const stderr = new Writable({ write: (_c, _e, cb) => cb() });
    const code = run(
      ['edge', 'start', '--control-plane', h.baseUrl, '--seats', '1', '--data', dir],
      { stdout, stderr, env: isolatedEnv({ AVATAR_API_KEY: h.emu.keys.secretKey }) },
    );
    await vi.waitFor(() => expect(out).toMatch(/Ctrl-C stops it/), { timeout: 15_000 });
    expect(out).toContain(`captures       ${join(dir, 'captures')}/<session_id>/\n`);
    process.emit('SIGINT');
    expect(await code).toBe(0);
    expect(out).toMatch(/edge box box_\w+ stopped: deregistered, its sessions ended\n$/);

    let plain = '';
    const code2 = run(['edge', 'start', '--control-plane', h.baseUrl, '--seats', '1'], {
      stdout: new Writable({ write: (c, _e, cb) => ((plain += String(c)), cb()) }),
      stderr,
      env: isolatedEnv({ AVATAR_API_KEY: h.emu.keys.secretKey }),
    });
    await vi.waitFor(() => expect(plain).toMatch(/Ctrl-C stops it/), { timeout: 15_000 });
    expect(plain).toContain('captures       none (recording: true needs --data DIR)');
    process.emit('SIGINT');
    expect(await code2).toBe(0);
  }, 40_000);
});
