/**
 * `avatar speak`, `avatar design`, `avatar prebuild` (issue 10 item 4): local files go as
 * data: URIs, URLs as is; the files written are a real MP4 and a real WAV; the timing
 * headers are shown after; errors map to the CLI's exit codes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/cli/exit-codes.js';
import { stockVersionId } from '../src/emulator/avatars/stock.js';
import { readWav } from '../src/models/voice/index.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { png } from './helpers/avatar-media.js';
import { mp4Info, spokenWav, transcode } from './helpers/generation-media.js';
import { startMediaServer, type MediaServer } from './helpers/media-server.js';

const h = useEmulator({ idleMedia: false, transcribeVoiceRefs: false });
let env: Record<string, string | undefined>;
let dir: string;
let media: MediaServer;

beforeAll(async () => {
  env = emulatorEnv(h, { workspace: true });
  dir = env.HOME!;
  const ref = await spokenWav('This is my voice for the command line test.', { voice: 'rms' });
  writeFileSync(join(dir, 'face.png'), png());
  writeFileSync(join(dir, 'voice.wav'), ref);
  writeFileSync(join(dir, 'voice.mp3'), await transcode(ref, 'mp3'));
  writeFileSync(join(dir, 'notes.txt'), 'not audio');
  media = await startMediaServer({ '/face.png': { bytes: png(), type: 'image/png' } });
});
afterAll(() => media.close());

describe('avatar speak', () => {
  it('writes the MP4 from local files and shows the timing headers', async () => {
    const r = await cli(
      [
        'speak',
        '--text',
        'Hello from the command line.',
        '--image',
        'face.png',
        '--voice',
        'voice.wav',
        '-o',
        'out.mp4',
        '--frame-rate',
        '20',
      ],
      env,
      dir,
    );
    expect(r.code, r.stderr).toBe(ExitCode.ok);
    const info = await mp4Info(readFileSync(join(dir, 'out.mp4')));
    expect(info.video).toMatchObject({ codec: 'h264', width: 352, height: 480, fps: 20 });
    expect(info.audio?.codec).toBe('aac');
    expect(r.stdout).toMatch(
      /^wrote out\.mp4 \(\d+ KB, [\d.]+ s of video\)\nclone \d+ ms · gen \d+ ms · total \d+ ms · box box_\w+\n$/,
    );
    expect(r.stderr).toMatch(/request: uploaded [\d.]+ MB\nrendering\.\.\./);
  });

  it('takes an image URL and an mp3; --json prints the figures', async () => {
    const r = await cli(
      [
        '--json',
        'speak',
        '--text',
        'Hi.',
        '--image',
        media.url('/face.png'),
        '--voice',
        'voice.mp3',
        '-o',
        'url.mp4',
      ],
      env,
      dir,
    );
    expect(r.code, r.stderr).toBe(ExitCode.ok);
    expect(r.json()).toMatchObject({
      file: 'url.mp4',
      bytes: readFileSync(join(dir, 'url.mp4')).length,
      box_id: expect.stringMatching(/^box_/),
    });
    expect(r.json().duration_s).toBeGreaterThan(0.3);
    expect(media.hits('/face.png')).toBe(1);
  });

  it('bad local files are usage errors (exit 2) before anything is sent; service errors exit 3', async () => {
    const missing = await cli(
      ['speak', '--text', 'x', '--image', 'nope.png', '--voice', 'voice.wav', '-o', 'x.mp4'],
      env,
      dir,
    );
    expect(missing.code).toBe(ExitCode.usage);
    expect(missing.stderr).toMatch(/--image: cannot read nope\.png/);
    const notAudio = await cli(
      ['speak', '--text', 'x', '--image', 'face.png', '--voice', 'notes.txt', '-o', 'x.mp4'],
      env,
      dir,
    );
    expect(notAudio.code).toBe(ExitCode.usage);
    expect(notAudio.stderr).toMatch(/--voice: notes\.txt is not audio/);
    const odd = await cli(
      [
        'speak',
        '--text',
        'x',
        '--image',
        'face.png',
        '--voice',
        'voice.wav',
        '-o',
        'x.mp4',
        '--width',
        '351',
      ],
      env,
      dir,
    );
    expect(odd.code).toBe(ExitCode.apiClientError);
    expect(odd.stderr.replace(/\s*\n\s*/g, ' ')).toMatch(/invalid_request.*width: must be even/);
  });

  it('an -o whose folder does not exist is a usage error before anything is sent (no render is lost)', async () => {
    const r = await cli(
      [
        'speak',
        '--text',
        'Hello.',
        '--image',
        'face.png',
        '--voice',
        'voice.wav',
        '-o',
        'no-such-dir/x.mp4',
      ],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toMatch(/-o: no folder no-such-dir/);
    expect(r.stderr).not.toMatch(/rendering|uploaded/);
    const d = await cli(
      ['design', '--description', 'a man', '--text', 'Hi.', '-o', 'no-such-dir/x.wav'],
      env,
      dir,
    );
    expect(d.code).toBe(ExitCode.usage);
    expect(d.stderr).toMatch(/-o: no folder no-such-dir/);
  });

  it('a key that is not workspace-bound, with no workspace given, is told the flag to pass', async () => {
    const noWs = {
      ...env,
      AVATAR_API_KEY: h.emu.keys.dashboardKey,
      AVATAR_WORKSPACE_ID: undefined,
    };
    const r = await cli(
      ['speak', '--text', 'Hello.', '--image', 'face.png', '--voice', 'voice.wav', '-o', 'ws.mp4'],
      noWs,
      dir,
    );
    expect(r.code).toBe(ExitCode.apiClientError);
    expect(r.stderr).toMatch(/workspace_id_required.*--workspace <id>.*AVATAR_WORKSPACE_ID/s);
    const ok = await cli(
      [
        '--workspace',
        h.emu.keys.workspaceId,
        'speak',
        '--text',
        'Hello.',
        '--image',
        'face.png',
        '--voice',
        'voice.wav',
        '-o',
        'ws.mp4',
      ],
      noWs,
      dir,
    );
    expect(ok.code, ok.stderr).toBe(ExitCode.ok);
  });

  it('a media error names the field once (the message does not repeat the detail)', async () => {
    writeFileSync(join(dir, 'text.png'), 'a text file named like an image');
    const r = await cli(
      ['speak', '--text', 'x', '--image', 'text.png', '--voice', 'voice.wav', '-o', 'x.mp4'],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.apiClientError);
    expect(r.stderr).toMatch(/invalid_request/);
    expect(r.stderr.replace(/\s*\n\s*/g, ' ').match(/image: not a decodable image/g)).toHaveLength(
      1,
    );
  });
});

describe('avatar design', () => {
  it('writes the WAV and prints its figures', async () => {
    const r = await cli(
      [
        'design',
        '--description',
        'a calm old man with a deep voice',
        '--text',
        'Good evening.',
        '-o',
        'voice.out.wav',
      ],
      env,
      dir,
    );
    expect(r.code, r.stderr).toBe(ExitCode.ok);
    const wav = readWav(readFileSync(join(dir, 'voice.out.wav')));
    expect(wav.sampleRate).toBe(24000);
    expect(r.stdout).toMatch(
      /^wrote voice\.out\.wav \(([\d.]+) s at 24000 Hz\) · gen \d+ ms · rtf [\d.]+\n$/,
    );
    const seconds = Number(/\(([\d.]+) s/.exec(r.stdout)![1]);
    expect(Math.abs(wav.samples.length / 24000 - seconds)).toBeLessThan(0.002);
  });

  it('a bad number is a usage error', async () => {
    const r = await cli(
      ['design', '--description', 'x', '--text', 'y', '-o', 'z.wav', '--top-k', 'many'],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.usage);
  });
});

describe('avatar prebuild', () => {
  it('prints each box and its status', async () => {
    const r = await cli(['--json', 'prebuild', stockVersionId('ava')], env, dir);
    expect(r.code, r.stderr).toBe(ExitCode.ok);
    expect(r.json()).toMatchObject({
      ok: false,
      avatar_ref: stockVersionId('ava'),
      boxes: [{ status: 'prebuild_unsupported' }],
    });
    const human = await cli(['prebuild', stockVersionId('ava')], env, dir);
    expect(human.stdout).toMatch(/box_id[\s\S]*prebuild_unsupported[\s\S]*no box took it/);
    const unknown = await cli(['prebuild', '00000000-0000-4000-8000-000000000000'], env, dir);
    expect(unknown.code).toBe(ExitCode.apiClientError);
    expect(unknown.stderr).toMatch(/not_found/);
  });
});
