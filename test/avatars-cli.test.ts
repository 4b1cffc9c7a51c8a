import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/cli/exit-codes.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { image, png, wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleSeconds: 1 });
let env: Record<string, string | undefined>;
let dir: string;

beforeAll(async () => {
  env = emulatorEnv(h, { workspace: true });
  dir = env.HOME!;
  writeFileSync(join(dir, 'face.jpg'), await image('jpeg'));
  writeFileSync(join(dir, 'face.png'), png());
  writeFileSync(join(dir, 'voice.wav'), wav(6));
  writeFileSync(join(dir, 'short.wav'), wav(3));
  writeFileSync(join(dir, 'prompt.txt'), 'You are Casey, a concise assistant.');
});

describe('avatar avatars create-custom', () => {
  it('creates a ready custom avatar from a face, a voice sample and a prompt file', async () => {
    const r = await cli(
      [
        '--json',
        'avatars',
        'create-custom',
        '--name',
        'Casey',
        '--face',
        'face.jpg',
        '--voice',
        'voice.wav',
        '--prompt',
        'prompt.txt',
        '--ref-text',
        'héllo',
      ],
      env,
      dir,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(ExitCode.ok);
    const a = r.json();
    expect(a).toMatchObject({
      name: 'Casey',
      kind: 'custom',
      status: 'active',
      assets_status: 'ready',
      current_version_id: a.version_id,
    });
    const v = (await (
      await h.fetch(`/api/v1/avatars/${a.id}/versions/${a.version_id}`, {
        key: h.emu.keys.secretKey,
      })
    ).json()) as any;
    expect(v).toMatchObject({
      system_prompt: 'You are Casey, a concise assistant.',
      voice_seconds: 6,
      voice_ref_text: 'héllo',
    });
    expect(v.image_blob_key).toMatch(/face\.jpg$/);
    const profiles = await cli(['--json', 'profiles', 'list', a.id], env);
    expect(profiles.json().data[0]).toMatchObject({ is_default: true });
  });

  const avatarCount = async () =>
    ((await (await h.fetch('/api/v1/avatars', { key: h.emu.keys.secretKey })).json()) as any).data
      .length as number;

  it.each([
    [
      'a 3 s voice sample',
      ['--face', 'face.png', '--voice', 'short.wav'],
      /--voice short\.wav: the sample is 3 s; it must be 5 to 30 s/,
    ],
    [
      'a truncated image',
      ['--face', 'cut.png', '--voice', 'voice.wav'],
      /--face cut\.png: the png image is truncated or corrupt/,
    ],
    [
      'a text file named .wav',
      ['--face', 'face.png', '--voice', 'text.wav'],
      /--voice text\.wav: not mp3 or wav audio/,
    ],
    [
      'an image with an audio name',
      ['--face', 'face.png', '--voice', 'face-as.wav'],
      /--voice face-as\.wav: not mp3 or wav audio \(its bytes read as image\/png\)/,
    ],
  ])(
    'checks %s locally: usage error (exit 2) and nothing created',
    async (_name, files, message) => {
      writeFileSync(join(dir, 'cut.png'), png().subarray(0, Math.floor(png().length / 2)));
      writeFileSync(join(dir, 'text.wav'), 'not audio at all');
      writeFileSync(join(dir, 'face-as.wav'), png());
      const before = await avatarCount();
      const r = await cli(
        [
          'avatars',
          'create-custom',
          '--name',
          'Bad',
          ...files,
          '--prompt',
          'prompt.txt',
          '--no-wait',
        ],
        env,
        dir,
      );
      expect(r.code).toBe(ExitCode.usage);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toContain('--content-type'); // create-custom has no such flag
      expect(await avatarCount()).toBe(before);
    },
  );

  it('removes the avatar it created when a later step fails at the service (exit 3)', async () => {
    writeFileSync(join(dir, 'huge-prompt.txt'), 'x'.repeat(50_000)); // over the 40,960-char system prompt
    const before = await avatarCount();
    const r = await cli(
      [
        'avatars',
        'create-custom',
        '--name',
        'Late',
        '--face',
        'face.png',
        '--voice',
        'voice.wav',
        '--prompt',
        'huge-prompt.txt',
      ],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.apiClientError);
    const id = /avatar ([0-9a-f-]{36}) created/.exec(r.stderr)![1]!;
    expect(r.stderr).toContain(`removed avatar ${id}, which this command had created`);
    expect(await avatarCount()).toBe(before);
  });

  it('refuses a missing file before creating anything (exit 2)', async () => {
    const before = (await (
      await h.fetch('/api/v1/avatars', { key: h.emu.keys.secretKey })
    ).json()) as any;
    const r = await cli(
      [
        'avatars',
        'create-custom',
        '--name',
        'X',
        '--face',
        'nope.png',
        '--voice',
        'voice.wav',
        '--prompt',
        'prompt.txt',
      ],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toContain('cannot read nope.png');
    const after = (await (
      await h.fetch('/api/v1/avatars', { key: h.emu.keys.secretKey })
    ).json()) as any;
    expect(after.data.length).toBe(before.data.length);
  });
});

describe('generated and hand-written avatar commands', () => {
  it('avatars, versions, uploads and profiles end to end', async () => {
    const a = (await cli(['--json', 'avatars', 'create', '--name', 'Cli'], env)).json();
    expect(a.kind).toBe('stock');
    const v = (
      await cli(
        [
          '--json',
          'versions',
          'create',
          a.id,
          '--system-prompt',
          'hi',
          '--config-json',
          '{"greeting_hold_ms":250}',
        ],
        env,
      )
    ).json();
    expect(v.upload_url).toContain(v.id);
    const up = await cli(['--json', 'versions', 'upload-face', a.id, v.id, 'face.png'], env, dir);
    expect(up.code).toBe(0);
    expect(up.json().published_at).toEqual(expect.any(Number));
    const voice = await cli(
      ['--json', 'versions', 'upload-voice', a.id, v.id, 'voice.wav', '--ref-text', 'hello'],
      env,
      dir,
    );
    expect(voice.json()).toMatchObject({ voice_seconds: 6, voice_ref_text: 'hello' });
    expect((await cli(['versions', 'upload-face', a.id, v.id, 'prompt.txt'], env, dir)).code).toBe(
      ExitCode.usage,
    );

    const file = join(dir, 'profile.json');
    writeFileSync(
      file,
      JSON.stringify({ system_prompt: 'from file', config_json: { greeting_enabled: false } }),
    );
    const p = await cli(
      ['--json', 'profiles', 'create', a.id, '--data', `@${file}`, '--set-default'],
      env,
    );
    expect(p.code).toBe(0);
    expect(p.json()).toMatchObject({ created: true, is_default: true });
    const again = await cli(['--json', 'profiles', 'create', a.id, '--data', `@${file}`], env);
    expect(again.json()).toMatchObject({ id: p.json().id, created: false });
    const show = await cli(['--json', 'profiles', 'show', a.id, p.json().id], env);
    expect(show.json()).toMatchObject({
      system_prompt: 'from file',
      config_json: { greeting_enabled: false },
    });
    const del = await cli(['profiles', 'delete', a.id, p.json().id], env);
    expect(del.code).toBe(ExitCode.apiClientError);
    expect(del.stderr).toContain('profile_is_default');
    const list = await cli(['profiles', 'list', a.id], env);
    expect(list.stdout).toContain('hash_short');
    const bad = await cli(['profiles', 'create', a.id, '--config-json', '{"render":false}'], env);
    expect(bad.code).toBe(ExitCode.apiClientError);
    expect(bad.stderr).toContain('config_key_session_only:render');
  });

  it('voices and sample upload', async () => {
    const voice = (
      await cli(['--json', 'voices', 'create', '--name', 'V', '--kind', 'cloned'], env)
    ).json();
    const ver = (await cli(['--json', 'voices', 'add-version', voice.id], env)).json();
    const up = await cli(
      ['--json', 'voices', 'upload-sample', voice.id, ver.id, 'voice.wav'],
      env,
      dir,
    );
    expect(up.code).toBe(0);
    expect(up.json().sample_blob_key).toMatch(/sample\.wav$/);
    expect((await cli(['--json', 'voices', 'get', voice.id], env)).json().current_version_id).toBe(
      ver.id,
    );
  });
});

describe('avatar tools validate', () => {
  const write = (name: string, value: unknown) => {
    writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
    return name;
  };
  const tool = {
    name: 'lookup',
    description: 'Find an order',
    input_schema: { type: 'object', properties: { id: { type: 'string' } } },
    timeout_ms: 60_000,
  };

  it('accepts a valid tools object and prints the normalized tools', async () => {
    const r = await cli(
      ['--json', 'tools', 'validate', write('ok.json', { servers: ['svc.image'], inline: [tool] })],
      env,
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      ok: true,
      servers: ['svc.image'],
      inline: [{ name: 'lookup', timeout_ms: 25_000 }],
      max_calls: 20,
      history: true,
    });
    const human = await cli(['tools', 'validate', 'ok.json'], env, dir);
    expect(human.stdout).toContain('ok: 1 inline tool(s)');
  });

  it.each([
    ['unknown field', { inline: [tool], mode: 1 }, 'unknown_tools_field:mode'],
    [
      'deep schema',
      {
        inline: [
          {
            ...tool,
            input_schema: {
              type: 'object',
              properties: {
                a: {
                  type: 'object',
                  properties: {
                    b: {
                      type: 'object',
                      properties: { c: { type: 'object', properties: { d: { type: 'string' } } } },
                    },
                  },
                },
              },
            },
          },
        ],
      },
      'schema_too_deep:lookup',
    ],
    ['max_calls', { max_calls: 0 }, 'invalid_max_calls'],
    ['mint body without a hook', { tools: { inline: [tool] } }, 'inline_tools_require_agent_hook'],
    [
      'mint body with an http hook',
      { tools: { inline: [tool] }, agent: { hook: 'http://x.example' } },
      'invalid_agent_hook',
    ],
    ['not JSON', '{nope', 'invalid_json'],
  ])('prints the service code for %s (exit 3)', async (_name, value, code) => {
    const r = await cli(['tools', 'validate', write('bad.json', value)], env, dir);
    expect(r.code).toBe(ExitCode.apiClientError);
    expect(r.stderr).toContain(code);
  });

  it('checks the hook rule with --agent-hook, and json output carries the code', async () => {
    write('inline.json', { inline: [tool] });
    expect(
      (
        await cli(
          ['tools', 'validate', 'inline.json', '--agent-hook', 'https://h.example/x'],
          env,
          dir,
        )
      ).code,
    ).toBe(0);
    const r = await cli(
      ['--json', 'tools', 'validate', write('conf.json', { inline: [tool, tool] })],
      env,
      dir,
    );
    expect(r.code).toBe(ExitCode.apiClientError);
    // With --json a failure is the service's error envelope on stderr; stdout stays empty.
    expect(r.stdout).toBe('');
    expect(JSON.parse(r.stderr)).toMatchObject({ status: 409, error: 'tool_name_conflict' });
  });
});
