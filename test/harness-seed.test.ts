import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/emulator/start.js';
import { seedJsonSchema } from '../src/emulator/seed/schema.js';
import { apiCall } from './helpers/emulator.js';
import { png, wav } from './helpers/avatar-media.js';
import { startMcpServer } from './helpers/mcp-server.js';

/**
 * Issue 18 item 2: `--seed FILE` (YAML or JSON) starts the emulator from a known state
 * (workspaces, keys with fixed values, webhooks, the org's plan); a bad seed fails the start
 * naming the file, the line and the field; the JSON Schema for editors is published.
 */
const dir = mkdtempSync(join(tmpdir(), 'avatar-seed-test-'));
const write = (name: string, text: string) => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
let emu: RunningEmulator | undefined;
afterEach(async () => {
  await emu?.stop();
  emu = undefined;
});
const start = (seed: string, extra: Record<string, unknown> = {}) =>
  startEmulator({ port: 0, inMemory: true, seed, allowInsecureUrls: true, ...extra });

const KEY1 = 'avatar_5eed0001.00000000000000000000000000000000000000000000000000000001';
const KEY2 = 'avatar_5eed0002.00000000000000000000000000000000000000000000000000000002';
const PK = 'pk_5eed0003.00000000000000000000000000000000000000000000000000000003';

describe('seed files', () => {
  it('a YAML seed gives workspaces, keys with fixed values, a webhook with a known secret and the org plan', async () => {
    const f = write(
      'seed.yaml',
      `org:
  plan: free
default_workspace:
  keys:
    - name: app
      token: ${KEY1}
    - name: browser
      token: ${PK}
      scopes: [sessions:write]
      allowed_origins: [http://localhost:3000]
  webhooks:
    - url: http://127.0.0.1:9/hook
      events: [queue.*]
      secret: whsec_known_for_tests_0123456789abcdef
workspaces:
  - id: 00000000-0000-4000-8000-0000000000e1
    name: Second team
    plan: pro
    keys:
      - name: second
        token: ${KEY2}
        scopes: [sessions:read]
`,
    );
    emu = await start(f);
    const mine = await apiCall(emu, `/api/v1/workspaces/${emu.keys.workspaceId}`, { key: KEY1 });
    expect(mine.status).toBe(200);
    const hooks = await apiCall(emu, `/api/v1/workspaces/${emu.keys.workspaceId}/webhooks`, {
      key: KEY1,
    });
    expect(hooks.body.data).toEqual([
      expect.objectContaining({ url: 'http://127.0.0.1:9/hook', events: ['queue.*'] }),
    ]);
    const list = await apiCall(emu, '/api/v1/workspaces', { key: emu.keys.dashboardKey });
    expect(
      list.body.data.map((w: { name: string; plan: string }) => [w.name, w.plan]),
    ).toContainEqual(['Second team', 'pro']);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ id: '00000000-0000-4000-8000-0000000000e1', name: 'Second team' }),
    );
    const second = await apiCall(emu, '/api/v1/workspaces', { key: KEY2 });
    expect(second.status).toBe(403); // known, scoped to sessions:read
    const org = await apiCall(emu, '/api/organizations', { key: emu.keys.dashboardKey });
    expect(org.body.data[0].plan).toBe('free');
    const pk = await apiCall(emu, '/api/v1/sessions', {
      key: PK,
      body: { persona: 'ava' },
      headers: { origin: 'http://localhost:3000' },
    });
    expect(pk.status).toBe(201);
  });

  it('a JSON seed works the same, faults included', async () => {
    const seed = {
      default_workspace: { keys: [{ name: 'app', token: KEY1 }] },
      faults: [{ route: 'GET /api/v1/tokens', status: 503, count: 1 }],
    };
    const f = write('seed.json', JSON.stringify(seed, null, 2));
    emu = await start(f);
    expect((await apiCall(emu, '/api/v1/tokens', { key: KEY1 })).status).toBe(503);
    expect((await apiCall(emu, '/api/v1/tokens', { key: KEY1 })).status).toBe(200);
  });

  it('avatars with a face and a voice from files, their profiles, voices and MCP servers, with fixed ids, through the public routes', async () => {
    writeFileSync(join(dir, 'maya.png'), png());
    writeFileSync(join(dir, 'maya.wav'), wav(6));
    writeFileSync(join(dir, 'narrator.wav'), wav(7));
    const mcp = await startMcpServer();
    try {
      const f = write(
        'seed-media.yaml',
        `default_workspace:
  keys:
    - name: app
      token: ${KEY1}
  avatars:
    - id: 00000000-0000-4000-8000-0000000000a1
      name: Maya
      kind: custom
      face: maya.png
      voice: ./maya.wav
      voice_ref_text: This is the voice I would like you to use.
      system_prompt: You are Maya, a concierge.
      profiles:
        - backstory: Maya grew up by the sea.
          set_default: true
        - id: 00000000-0000-4000-8000-0000000000d1
          system_prompt: You are Maya, on the night shift.
    - name: Leo from stock
      source_persona: leo
  voices:
    - id: 00000000-0000-4000-8000-0000000000b1
      name: Narrator
      kind: cloned
      sample: narrator.wav
  mcp_servers:
    - id: mcps_00000000000000000000c001
      name: weather
      url: ${mcp.url}
`,
      );
      emu = await start(f);
      const ws = emu.keys.workspaceId;
      const avatars = await apiCall(emu, '/api/v1/avatars', { key: KEY1 });
      expect(avatars.status).toBe(200);
      const maya = avatars.body.data.find((a: { name: string }) => a.name === 'Maya');
      expect(maya).toMatchObject({
        id: '00000000-0000-4000-8000-0000000000a1',
        workspace_id: ws,
        kind: 'custom',
        current_version_id: expect.any(String),
      });
      const face = await apiCall(
        emu,
        `/api/v1/avatars/${maya.id}/versions/${maya.current_version_id}/upload`,
        { key: KEY1 },
      );
      expect(face.status).toBe(200);
      expect(Buffer.compare(face.body, png())).toBe(0);
      const version = await apiCall(
        emu,
        `/api/v1/avatars/${maya.id}/versions/${maya.current_version_id}`,
        { key: KEY1 },
      );
      expect(version.body).toMatchObject({ system_prompt: 'You are Maya, a concierge.' });
      const voice = await apiCall(
        emu,
        `/api/v1/avatars/${maya.id}/versions/${maya.current_version_id}/voice`,
        { key: KEY1 },
      );
      expect(voice.status).toBe(200);
      const profiles = await apiCall(emu, `/api/v1/avatars/${maya.id}/profiles`, { key: KEY1 });
      const def = await apiCall(
        emu,
        `/api/v1/avatars/${maya.id}/profiles/${profiles.body.default_profile_id}`,
        { key: KEY1 },
      );
      expect(def.body).toMatchObject({ backstory: 'Maya grew up by the sea.', is_default: true });
      expect(avatars.body.data.map((a: { name: string }) => a.name)).toContain('Leo from stock');
      const night = await apiCall(
        emu,
        `/api/v1/avatars/${maya.id}/profiles/00000000-0000-4000-8000-0000000000d1`,
        { key: KEY1 },
      );
      expect(night.body).toMatchObject({
        system_prompt: 'You are Maya, on the night shift.',
        is_default: false,
      });
      // The seeded avatar is usable at once: a session mints with it.
      const mint = await apiCall(emu, '/api/v1/sessions', {
        key: KEY1,
        body: { avatar_id: maya.id },
      });
      expect(mint.status, JSON.stringify(mint.body)).toBe(201);
      expect(mint.body.profile).toMatchObject({ id: profiles.body.default_profile_id });

      const voices = await apiCall(emu, `/api/v1/workspaces/${ws}/voices`, { key: KEY1 });
      expect(voices.body.data).toContainEqual(
        expect.objectContaining({
          id: '00000000-0000-4000-8000-0000000000b1',
          name: 'Narrator',
          kind: 'cloned',
          current_version_id: expect.any(String),
        }),
      );
      const servers = await apiCall(emu, `/api/v1/workspaces/${ws}/mcp-servers`, { key: KEY1 });
      expect(servers.body.data).toEqual([
        expect.objectContaining({
          id: 'mcps_00000000000000000000c001',
          name: 'weather',
          status: 'active',
          tools: expect.arrayContaining([expect.objectContaining({ name: 'get_weather' })]),
        }),
      ]);
    } finally {
      await mcp.close();
    }
  });

  it.each([
    [
      'a bad token',
      'seed-a.yaml',
      `default_workspace:\n  keys:\n    - name: app\n      token: avatar_123\n`,
      /seed-a\.yaml:4: default_workspace\.keys\.0\.token: must be avatar_<8 hex>/,
    ],
    [
      'an unknown field',
      'seed-b.yaml',
      `workspaces:\n  - name: x\n    colour: blue\n`,
      /seed-b\.yaml:3: workspaces\.0\.colour: is not a seed field/,
    ],
    [
      'a missing name',
      'seed-c.json',
      `{\n  "workspaces": [\n    { "plan": "pro" }\n  ]\n}\n`,
      /seed-c\.json:3: workspaces\.0\.name: required/,
    ],
    [
      'broken YAML',
      'seed-d.yaml',
      `org:\n  plan: [free\n`,
      /seed-d\.yaml:\d+: not valid YAML or JSON/,
    ],
    [
      'an org plan that does not exist',
      'seed-e.yaml',
      `org:\n  plan: gold\n`,
      /seed-e\.yaml:2: org\.plan: /,
    ],
    [
      'a webhook the emulator refuses',
      'seed-f.yaml',
      `default_workspace:\n  webhooks:\n    - url: ftp://x\n      events: [queue.*]\n`,
      /seed-f\.yaml:3: default_workspace\.webhooks\.0: the emulator refused it \(400 invalid_request/,
    ],
    [
      'a fault with neither status nor latency',
      'seed-h.yaml',
      `faults:\n  - route: /api/v1/tokens\n`,
      /seed-h\.yaml:2: faults\.0\.status: give status, latency_ms or both/,
    ],
    [
      'two keys with the same id',
      'seed-g.yaml',
      `default_workspace:\n  keys:\n    - name: a\n      token: ${KEY1}\n    - name: b\n      token: ${KEY1}\n`,
      /seed-g\.yaml:6: default_workspace\.keys\.1\.token: the 8 hex after the prefix are already used by default_workspace\.keys\.0\.token/,
    ],
    [
      'a face file that is not there',
      'seed-i.yaml',
      `default_workspace:\n  avatars:\n    - name: Maya\n      face: no-such-face.png\n`,
      /seed-i\.yaml:4: default_workspace\.avatars\.0\.face: cannot read .*no-such-face\.png/,
    ],
    [
      'a voice file of a type the route does not take',
      'seed-j.yaml',
      `workspaces:\n  - name: x\n    avatars:\n      - name: Maya\n        voice: voice.ogg\n`,
      /seed-j\.yaml:5: workspaces\.0\.avatars\.0\.voice: .*\.wav or \.mp3/,
    ],
    [
      'a voice sample the emulator refuses (too short)',
      'seed-k.yaml',
      `default_workspace:\n  voices:\n    - name: short\n      sample: short.wav\n`,
      /seed-k\.yaml:4: default_workspace\.voices\.0\.sample: the emulator refused it \(400/,
    ],
    [
      'an avatar id that is not a uuid',
      'seed-l.yaml',
      `default_workspace:\n  avatars:\n    - id: maya\n      name: Maya\n`,
      /seed-l\.yaml:3: default_workspace\.avatars\.0\.id: /,
    ],
    [
      'two avatars with one id',
      'seed-m.yaml',
      `default_workspace:\n  avatars:\n    - id: 00000000-0000-4000-8000-0000000000a1\n      name: A\nworkspaces:\n  - name: x\n    avatars:\n      - id: 00000000-0000-4000-8000-0000000000a1\n        name: B\n`,
      /seed-m\.yaml:8: workspaces\.0\.avatars\.0\.id: already used by default_workspace\.avatars\.0\.id/,
    ],
    [
      'an MCP server the emulator refuses',
      'seed-n.yaml',
      `default_workspace:\n  mcp_servers:\n    - name: w\n      url: ftp://tools.example/mcp\n`,
      /seed-n\.yaml:3: default_workspace\.mcp_servers\.0: the emulator refused it \(400 invalid_request/,
    ],
  ])('%s fails the start naming file, line and field', async (_what, name, text, message) => {
    writeFileSync(join(dir, 'short.wav'), wav(1));
    const f = write(name, text);
    const err = (await start(f).catch((e: unknown) => e)) as Error & { code: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('ESEED');
    expect(err.message).toMatch(message);
  });

  it('the published JSON Schema (schemas/seed.schema.json) is the seed schema', () => {
    const published = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'schemas', 'seed.schema.json'), 'utf8'),
    );
    expect(published, 'regenerate it: npm run build && npm run schema:seed').toEqual(
      seedJsonSchema(),
    );
  });
});
