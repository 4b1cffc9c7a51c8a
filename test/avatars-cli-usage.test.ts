/** Usage errors of the hand-written avatar commands: exit 2 before anything is created. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/cli/exit-codes.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { png, wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleMedia: false });
let env: Record<string, string | undefined>;
let dir: string;

beforeAll(() => {
  env = emulatorEnv(h, { workspace: true });
  dir = env.HOME!;
  writeFileSync(join(dir, 'face.png'), png());
  writeFileSync(join(dir, 'voice.wav'), wav(6));
  writeFileSync(join(dir, 'prompt.txt'), 'You are Casey.');
});

const count = async () =>
  ((await (await h.fetch('/api/v1/avatars', { key: h.emu.keys.secretKey })).json()) as any).data
    .length;

describe('avatar avatars create-custom --timeout', () => {
  it.each(['abc', '-5', ''])('refuses --timeout %j with exit 2 and creates nothing', async (t) => {
    const before = await count();
    const r = await cli(
      [
        'avatars',
        'create-custom',
        '--name',
        'T',
        '--face',
        'face.png',
        '--voice',
        'voice.wav',
        '--prompt',
        'prompt.txt',
        '--timeout',
        t,
      ],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toContain('--timeout');
    expect(await count()).toBe(before);
  });

  it('refuses a 2 s voice sample before creating anything: no draft avatar is left behind (exit 2)', async () => {
    writeFileSync(join(dir, 'short.wav'), wav(2));
    const r = await cli(
      [
        'avatars',
        'create-custom',
        '--name',
        'Half',
        '--face',
        'face.png',
        '--voice',
        'short.wav',
        '--prompt',
        'prompt.txt',
      ],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toMatch(/--voice short\.wav: the sample is 2 s; it must be 5 to 30 s/);
    const list = (
      (await (await h.fetch('/api/v1/avatars', { key: h.emu.keys.secretKey })).json()) as any
    ).data;
    expect(list.find((a: any) => a.name === 'Half')).toBeUndefined();
  });
});
