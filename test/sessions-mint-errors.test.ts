import { beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';
import type { AvatarClient } from '../src/client/client.js';

/** Every 4xx of spec 7 "Session mint" and "Tools at mint" that the mint body alone decides. */
const h = useEmulator({
  seats: 50,
  mintRatePerMinute: 0,
  planLimits: { free: { concurrency: 1000, maxCapSeconds: 3600 } },
});
const ORIGIN = 'http://app.test';
let pk: AvatarClient;
let device: AvatarClient;
let dash: AvatarClient;
let zdr: AvatarClient;
let demo: AvatarClient;
let noRec: AvatarClient;

async function boundKey(name: string, update?: string) {
  const ws = await dash.call('workspaces.create', { body: { name } });
  if (update) h.emu.ctx.db.prepare(`UPDATE workspaces SET ${update} WHERE id = ?`).run(ws.body.id);
  const k = await dash.call('tokens.create', { body: { name, workspaceId: ws.body.id } });
  return h.as(k.body.token);
}

const unpublished = { avatar: '', version: '' };

beforeAll(async () => {
  const a = await h.client.call('avatars.create', { body: { name: 'draft', kind: 'custom' } });
  unpublished.avatar = a.body.id;
  const v = await h.client.call('versions.create', {
    params: { avatarId: a.body.id },
    body: { system_prompt: 'hi' },
  });
  unpublished.version = v.body.id;
  dash = h.as(h.emu.keys.dashboardKey);
  const p = await h.client.call('tokens.create', {
    body: { name: 'web', kind: 'publishable', allowedOrigins: [ORIGIN] },
  });
  pk = h.as(p.body.token, ORIGIN);
  const d = await h.client.call('devices.create', {
    params: { wsId: h.emu.keys.workspaceId },
    body: { name: 'phone', platform: 'ios' },
  });
  device = h.as(d.body.token);
  zdr = await boundKey('zdr', 'zdr = 1');
  demo = await boundKey('demo', "plan = 'demo'");
  noRec = await boundKey('norec', `features = '["custom_avatars","recording_disabled"]'`);
  const db = h.emu.ctx.db;
  const ws = h.emu.keys.workspaceId;
  db.prepare(
    `INSERT INTO mcp_servers (id, workspace_id, name, url, status, tools_json, tools_cached_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
  ).run(
    'mcps_weather',
    ws,
    'weather',
    'https://mcp.example/weather',
    'active',
    JSON.stringify([
      { name: 'forecast', description: 'd' },
      { name: 'lookup', description: 'd' },
    ]),
    0,
  );
  db.prepare(
    `INSERT INTO mcp_servers (id, workspace_id, name, url, status, tools_json, created_at) VALUES (?, ?, ?, ?, ?, NULL, 0)`,
  ).run('mcps_cold', ws, 'cold', 'https://mcp.example/cold', 'error');
  db.prepare(
    `INSERT INTO mcp_servers (id, workspace_id, name, url, status, tools_json, created_at) VALUES (?, ?, ?, ?, ?, '[]', 0)`,
  ).run('mcps_off', ws, 'off', 'https://mcp.example/off', 'disabled');
});

const hook = { hook: 'https://tenant.example/hook', tok: 't' };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: 'does a thing',
  input_schema: { type: 'object', properties: {} },
  ...extra,
});
const deep = {
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
};

type Case = [string, () => AvatarClient, Record<string, unknown>, number, string, string?];
const cases: Case[] = [
  // credentials (spec 7, 5.9)
  [
    'avatar_ref from a publishable key',
    () => pk,
    { avatar_ref: crypto.randomUUID() },
    403,
    'custom_avatar_not_allowed',
  ],
  [
    'voice_ref from a publishable key',
    () => pk,
    { persona: 'ava', voice_ref: crypto.randomUUID() },
    403,
    'custom_avatar_not_allowed',
  ],
  [
    'avatar_version_id',
    () => pk,
    { persona: 'ava', avatar_version_id: crypto.randomUUID() },
    403,
    'avatar_version_pin_not_allowed',
  ],
  ['profile_id', () => pk, { persona: 'ava', profile_id: 'p1' }, 403, 'profile_pin_not_allowed'],
  [
    'tools from a publishable key',
    () => pk,
    { persona: 'ava', tools: { inline: [] } },
    403,
    'tools_context_not_allowed',
  ],
  [
    'context from a publishable key',
    () => pk,
    { persona: 'ava', context: { backstory: 'x' } },
    403,
    'tools_context_not_allowed',
  ],
  [
    'config from a device key',
    () => device,
    { persona: 'ava', config: { greeting_enabled: false } },
    403,
    'tools_context_not_allowed',
  ],
  [
    'extra_system_prompt from a device key',
    () => device,
    { persona: 'ava', extra_system_prompt: 'x' },
    403,
    'tools_context_not_allowed',
  ],
  [
    'session_cap_seconds from a publishable key',
    () => pk,
    { persona: 'ava', session_cap_seconds: 120 },
    403,
    'session_cap_not_allowed',
  ],
  [
    'notify from a publishable key',
    () => pk,
    { persona: 'ava', notify: { url: 'https://x.example' } },
    400,
    'notify_not_allowed',
  ],
  [
    'recording on the demo tier',
    () => demo,
    { persona: 'ava', recording: true },
    403,
    'recording_not_allowed',
  ],
  [
    'recording on a zero-data-retention workspace',
    () => zdr,
    { persona: 'ava', recording: true },
    403,
    'recording_not_allowed',
  ],
  [
    'observability true where recording is off',
    () => noRec,
    { persona: 'ava', observability: true },
    403,
    'recording_not_allowed',
  ],
  // selection and validation (400)
  [
    'avatar_ref with avatar_id',
    () => h.client,
    { avatar_ref: crypto.randomUUID(), avatar_id: crypto.randomUUID() },
    400,
    'avatar_ref_avatar_id_exclusive',
  ],
  [
    'avatar_ref with persona',
    () => h.client,
    { avatar_ref: crypto.randomUUID(), persona: 'ava' },
    400,
    'avatar_ref_persona_exclusive',
  ],
  [
    'avatar without a published version',
    () => h.client,
    { avatar_id: 'UNPUBLISHED_AVATAR' },
    400,
    'avatar_not_published',
  ],
  [
    'version without its face',
    () => h.client,
    { avatar_ref: 'UNPUBLISHED_VERSION' },
    400,
    'version_not_published',
  ],
  ['unknown avatar_id', () => h.client, { avatar_id: crypto.randomUUID() }, 404, 'not_found'],
  [
    'profile_id on a stock persona',
    () => h.client,
    { persona: 'ava', profile_id: 'p1' },
    400,
    'profile_mismatch',
  ],
  [
    'context.system_prompt too long',
    () => h.client,
    { persona: 'ava', context: { system_prompt: 'x'.repeat(40_961) } },
    400,
    'invalid_context_system_prompt',
  ],
  [
    'config unknown key',
    () => h.client,
    { persona: 'ava', config: { volume: 3 } },
    400,
    'invalid_config',
    'unknown_config_key:volume',
  ],
  [
    'config out of range',
    () => h.client,
    { persona: 'ava', config: { greeting_hold_ms: 9000 } },
    400,
    'invalid_config',
    'config_out_of_range:greeting_hold_ms',
  ],
  [
    'response_language junk',
    () => h.client,
    { persona: 'ava', response_language: '12$%' },
    400,
    'invalid_response_language',
  ],
  [
    'session_cap_seconds below 60',
    () => h.client,
    { persona: 'ava', session_cap_seconds: 59 },
    400,
    'invalid_session_cap_seconds',
  ],
  [
    'session_cap_seconds not an integer',
    () => h.client,
    { persona: 'ava', session_cap_seconds: '300' },
    400,
    'invalid_session_cap_seconds',
  ],
  [
    'recording not boolean',
    () => h.client,
    { persona: 'ava', recording: 'yes' },
    400,
    'invalid_recording',
  ],
  [
    'observability not boolean',
    () => h.client,
    { persona: 'ava', observability: 1 },
    400,
    'invalid_observability',
  ],
  [
    'avatar_ref from an unbound key',
    () => dash,
    { avatar_ref: crypto.randomUUID() },
    400,
    'workspace_id_required',
  ],
  [
    'memory_id on zero-data-retention',
    () => zdr,
    { persona: 'ava', context: { memory_id: 'm1' } },
    400,
    'zdr_memory_unavailable',
  ],
  [
    'extras on zero-data-retention',
    () => zdr,
    { persona: 'ava', extra_backstory: 'x' },
    400,
    'zdr_tools_unavailable',
  ],
  [
    'notify over plain http',
    () => h.client,
    { persona: 'ava', notify: { url: 'http://x.example/hook' } },
    400,
    'invalid_notify_url',
  ],
  // not a list of versions (issue 19 item 5): the caller's error, not 503 protocol_unavailable
  [
    'protocol_versions of 100,000 zeros',
    () => h.client,
    { persona: 'ava', protocol_versions: new Array(100_000).fill(0) },
    400,
    'invalid_request',
  ],
  [
    'protocol_versions [0]',
    () => h.client,
    { persona: 'ava', protocol_versions: [0] },
    400,
    'invalid_request',
    'protocol_versions.0: a protocol version is an integer from 1',
  ],
  [
    '17 protocol_versions',
    () => h.client,
    { persona: 'ava', protocol_versions: new Array(17).fill(1) },
    400,
    'invalid_request',
    'protocol_versions: at most 16 versions',
  ],
  // tools at mint
  [
    'inline tools without agent.hook',
    () => h.client,
    { persona: 'ava', tools: { inline: [tool('a')] } },
    400,
    'inline_tools_require_agent_hook',
  ],
  [
    'agent.hook over plain http',
    () => h.client,
    { persona: 'ava', agent: { hook: 'http://tenant.example/h' } },
    400,
    'invalid_agent_hook',
  ],
  [
    'agent over 1,024 bytes',
    () => h.client,
    { persona: 'ava', agent: { ...hook, v: 'x'.repeat(1100) } },
    400,
    'agent_claim_too_large',
  ],
  [
    '17 inline tools',
    () => h.client,
    {
      persona: 'ava',
      agent: hook,
      tools: { inline: Array.from({ length: 17 }, (_, i) => tool(`t${i}`)) },
    },
    400,
    'too_many_tools',
  ],
  [
    '5 servers',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_1', 'mcps_2', 'mcps_3', 'mcps_4', 'mcps_5'] } },
    400,
    'too_many_mcp_servers',
  ],
  [
    'a server tool and an inline tool share a name',
    () => h.client,
    {
      persona: 'ava',
      agent: hook,
      tools: { servers: ['mcps_weather'], inline: [tool('forecast')] },
    },
    409,
    'tool_name_conflict',
  ],
  [
    'tools resolve to nothing',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_weather'], allow: ['nothing'] } },
    400,
    'no_tools_resolved',
  ],
  [
    'bad tool name',
    () => h.client,
    { persona: 'ava', agent: hook, tools: { inline: [tool('bad name!')] } },
    400,
    'invalid_tool_name',
  ],
  [
    'tool description over 300',
    () => h.client,
    {
      persona: 'ava',
      agent: hook,
      tools: { inline: [tool('t', { description: 'x'.repeat(301) })] },
    },
    400,
    'invalid_tool_description:t',
  ],
  [
    'schema root not object',
    () => h.client,
    {
      persona: 'ava',
      agent: hook,
      tools: { inline: [tool('t', { input_schema: { type: 'string' } })] },
    },
    400,
    'schema_root_must_be_object:t',
  ],
  [
    'schema too large',
    () => h.client,
    {
      persona: 'ava',
      agent: hook,
      tools: {
        inline: [tool('t', { input_schema: { type: 'object', description: 'x'.repeat(2100) } })],
      },
    },
    400,
    'schema_too_large:t',
  ],
  [
    'schema too deep',
    () => h.client,
    { persona: 'ava', agent: hook, tools: { inline: [tool('t', { input_schema: deep })] } },
    400,
    'schema_too_deep:t',
  ],
  [
    'schema with $ref',
    () => h.client,
    {
      persona: 'ava',
      agent: hook,
      tools: {
        inline: [
          tool('t', { input_schema: { type: 'object', properties: { a: { $ref: '#/x' } } } }),
        ],
      },
    },
    400,
    'schema_ref_unsupported:t',
  ],
  [
    'max_calls 101',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_weather'], max_calls: 101 } },
    400,
    'invalid_max_calls',
  ],
  [
    'unknown MCP server',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_nope'] } },
    400,
    'mcp_server_not_found',
  ],
  [
    'disabled MCP server',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_off'] } },
    400,
    'mcp_server_not_found',
  ],
  [
    'MCP server without a cached tool list',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_cold'] } },
    409,
    'mcp_server_unavailable',
  ],
  [
    'built-in not enabled',
    () => h.client,
    { persona: 'ava', tools: { servers: ['svc.image'] } },
    403,
    'builtin_server_not_enabled',
  ],
  [
    'unknown built-in',
    () => h.client,
    { persona: 'ava', tools: { servers: ['svc.video'] } },
    404,
    'builtin_server_not_found',
  ],
  [
    'tools plus context over 128 KB',
    () => h.client,
    {
      persona: 'ava',
      context: { history: [], backstory: 'x'.repeat(16_000), memory_block: 'y'.repeat(4_000) },
      tools: {
        servers: ['mcps_weather'],
        allow: Array.from({ length: 3000 }, (_, i) => `name_${i}_${'z'.repeat(40)}`),
      },
    },
    400,
    'agent_payload_too_large',
  ],
  [
    'tools.servers from an unbound key',
    () => dash,
    { persona: 'ava', tools: { servers: ['mcps_weather'] } },
    400,
    'workspace_id_required',
  ],
  [
    'unknown tools field',
    () => h.client,
    { persona: 'ava', tools: { servers: ['mcps_weather'], budget: 3 } },
    400,
    'unknown_tools_field:budget',
  ],
];

describe('session mint errors (spec 7)', () => {
  it.each(cases)('%s', async (_name, who, body, status, code, detail) => {
    const fill = (v: unknown) =>
      v === 'UNPUBLISHED_AVATAR'
        ? unpublished.avatar
        : v === 'UNPUBLISHED_VERSION'
          ? unpublished.version
          : v;
    const r = await who().send('sessions.mint', {
      body: Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fill(v)])),
    });
    expect(r.status).toBe(status);
    expect(r.body.error).toBe(code);
    if (detail) expect(r.body.detail).toBe(detail);
  });

  it('bad JSON and unknown fields get the envelope, never a 500', async () => {
    const bad = await h.fetch('/api/v1/sessions', {
      method: 'POST',
      key: h.emu.keys.secretKey,
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('invalid_json');
    const unknown = await h.client.send('sessions.mint', {
      body: { persona: 'ava', colour: 'red' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_request');
    const none = await h.client.send('sessions.mint', { body: {} });
    expect(none.status).toBe(400);
  });
});
