import { describe, expect, it } from 'vitest';
import {
  applyAllow,
  checkAgentPayload,
  checkResolvedTools,
  CONFIG_DEFAULTS,
  mergeConfig,
  mergeTools,
  parseStoredTools,
  validateAgent,
  validateConfig,
  validateTools,
  type Validation,
} from '../src/contract/validators/index.js';

/** `{status, error, detail}` of a failure, or `ok` (what a client would see). */
function outcome(v: Validation<unknown>) {
  return v.ok
    ? 'ok'
    : v.detail === undefined
      ? { status: v.status, error: v.error }
      : { status: v.status, error: v.error, detail: v.detail };
}

const tool = (over: Record<string, unknown> = {}) => ({
  name: 'lookup',
  description: 'Look an order up by id',
  input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  ...over,
});

/** A schema nested `levels` subschemas deep (root = 1). */
function nested(levels: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < levels; i++) s = { type: 'object', properties: { x: s } };
  return levels === 1 ? { type: 'object' } : s;
}

describe('config group (spec 2, spec 7 "Config and profiles")', () => {
  const big = { greeting_enabled: true, junk: 'x'.repeat(1100) };
  const cases: [string, unknown, 'session' | 'profile', unknown][] = [
    ['absent config', undefined, 'session', 'ok'],
    ['null config', null, 'profile', 'ok'],
    ['empty object', {}, 'session', 'ok'],
    [
      'all keys valid (session)',
      { greeting_enabled: false, greeting_hold_ms: 0, render: false },
      'session',
      'ok',
    ],
    ['hold at the top of the range', { greeting_hold_ms: 5000 }, 'profile', 'ok'],
    [
      'unknown key at mint',
      { colour: 'red' },
      'session',
      { status: 400, error: 'invalid_config', detail: 'unknown_config_key:colour' },
    ],
    [
      'unknown key in a profile',
      { colour: 'red' },
      'profile',
      { status: 400, error: 'invalid_config_json', detail: 'unknown_config_key:colour' },
    ],
    [
      'boolean key with a string',
      { greeting_enabled: 'yes' },
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_not_boolean:greeting_enabled' },
    ],
    [
      'boolean key with a number (profile)',
      { greeting_enabled: 1 },
      'profile',
      { status: 400, error: 'invalid_config_json', detail: 'config_not_boolean:greeting_enabled' },
    ],
    [
      'render not boolean',
      { render: 'no' },
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_not_boolean:render' },
    ],
    [
      'integer key with a string',
      { greeting_hold_ms: '100' },
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_not_integer:greeting_hold_ms' },
    ],
    [
      'integer key with a fraction',
      { greeting_hold_ms: 10.5 },
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_not_integer:greeting_hold_ms' },
    ],
    [
      'hold over the range',
      { greeting_hold_ms: 5001 },
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_out_of_range:greeting_hold_ms' },
    ],
    [
      'hold under the range (profile)',
      { greeting_hold_ms: -1 },
      'profile',
      { status: 400, error: 'invalid_config_json', detail: 'config_out_of_range:greeting_hold_ms' },
    ],
    [
      'over 1,024 bytes',
      big,
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_too_large' },
    ],
    [
      'over 1,024 bytes (profile)',
      big,
      'profile',
      { status: 400, error: 'invalid_config_json', detail: 'config_too_large' },
    ],
    [
      'render stored in a profile',
      { render: false },
      'profile',
      { status: 400, error: 'invalid_config_json', detail: 'config_key_session_only:render' },
    ],
    ['a null render in a profile is dropped', { render: null }, 'profile', 'ok'],
    [
      'not an object',
      [1],
      'session',
      { status: 400, error: 'invalid_config', detail: 'config_not_object' },
    ],
  ];
  it.each(cases)('%s', (_name, input, source, expected) => {
    expect(outcome(validateConfig(input, source))).toEqual(expected);
  });

  it('treats {}, {key: null} and absent config the same (null-drop)', () => {
    const a = validateConfig({}, 'session');
    const b = validateConfig({ greeting_enabled: null, greeting_hold_ms: null }, 'session');
    const c = validateConfig(undefined, 'session');
    expect(a).toEqual({ ok: true, value: {} });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('measures the size in UTF-8 bytes, not characters', () => {
    // 400 three-byte characters: 400 chars, 1,200 bytes.
    const r = validateConfig({ k: '€'.repeat(400) }, 'session');
    expect(outcome(r)).toEqual({
      status: 400,
      error: 'invalid_config',
      detail: 'config_too_large',
    });
  });

  it('merges per key: session, else profile, else fleet default', () => {
    expect(mergeConfig(undefined, undefined)).toEqual(CONFIG_DEFAULTS);
    expect(
      mergeConfig({ greeting_hold_ms: 0 }, { greeting_hold_ms: 900, greeting_enabled: false }),
    ).toEqual({
      greeting_enabled: false,
      greeting_hold_ms: 0,
      render: true,
    });
    expect(
      mergeConfig({ render: false }, null, {
        greeting_enabled: true,
        greeting_hold_ms: 1500,
        render: true,
      }),
    ).toEqual({
      greeting_enabled: true,
      greeting_hold_ms: 1500,
      render: false,
    });
  });
});

describe('tools object and definitions (spec 2, spec 7 "Tools at mint")', () => {
  const hook = { agentHook: 'https://hooks.example.com/avatar' };
  const manyTools = Array.from({ length: 17 }, (_, i) => tool({ name: `t${i}` }));
  const sixteen = Array.from({ length: 16 }, (_, i) => tool({ name: `t${i}` }));
  const bigSchema = {
    type: 'object',
    properties: { a: { type: 'string', description: 'x'.repeat(2100) } },
  };
  const cases: [string, unknown, object, unknown][] = [
    ['empty object', {}, {}, 'ok'],
    [
      'servers and settings',
      { servers: ['mcps_1', 'svc.image'], allow: ['a'], max_calls: 100, history: false },
      {},
      'ok',
    ],
    ['16 inline tools with a hook', { inline: sixteen }, hook, 'ok'],
    ['inline tools in a profile need no hook', { inline: [tool()] }, {}, 'ok'],
    [
      'not an object',
      'lookup',
      {},
      { status: 400, error: 'invalid_request', detail: 'tools: expected an object' },
    ],
    [
      'unknown tools field',
      { servers: [], mode: 'x' },
      {},
      {
        status: 400,
        error: 'unknown_tools_field:mode',
        detail:
          'tools.mode: not a tools field (allowed: servers, inline, allow, max_calls, history)',
      },
    ],
    [
      '5 servers',
      { servers: ['a', 'b', 'c', 'd', 'e'] },
      {},
      { status: 400, error: 'too_many_mcp_servers' },
    ],
    ['17 inline tools', { inline: manyTools }, hook, { status: 400, error: 'too_many_tools' }],
    [
      'inline without agent.hook at mint',
      { inline: [tool()] },
      { agentHook: null },
      { status: 400, error: 'inline_tools_require_agent_hook' },
    ],
    [
      'bad tool name',
      { inline: [tool({ name: 'look up' })] },
      hook,
      { status: 400, error: 'invalid_tool_name' },
    ],
    [
      'tool name over 64 chars',
      { inline: [tool({ name: 'a'.repeat(65) })] },
      hook,
      { status: 400, error: 'invalid_tool_name' },
    ],
    [
      'missing tool name',
      { inline: [tool({ name: undefined })] },
      hook,
      { status: 400, error: 'invalid_tool_name' },
    ],
    [
      'description over 300 chars',
      { inline: [tool({ description: 'd'.repeat(301) })] },
      hook,
      { status: 400, error: 'invalid_tool_description:lookup' },
    ],
    ['description at 300 chars', { inline: [tool({ description: 'd'.repeat(300) })] }, hook, 'ok'],
    [
      'missing description',
      { inline: [tool({ description: undefined })] },
      hook,
      { status: 400, error: 'invalid_tool_description:lookup' },
    ],
    [
      'schema root array',
      { inline: [tool({ input_schema: { type: 'array' } })] },
      hook,
      { status: 400, error: 'schema_root_must_be_object:lookup' },
    ],
    [
      'schema missing',
      { inline: [tool({ input_schema: undefined })] },
      hook,
      { status: 400, error: 'schema_root_must_be_object:lookup' },
    ],
    [
      'schema over 2,048 bytes',
      { inline: [tool({ input_schema: bigSchema })] },
      hook,
      { status: 400, error: 'schema_too_large:lookup' },
    ],
    ['schema depth 4', { inline: [tool({ input_schema: nested(4) })] }, hook, 'ok'],
    [
      'schema depth 5',
      { inline: [tool({ input_schema: nested(5) })] },
      hook,
      { status: 400, error: 'schema_too_deep:lookup' },
    ],
    [
      'schema with $ref',
      { inline: [tool({ input_schema: { type: 'object', properties: { a: { $ref: '#/x' } } } })] },
      hook,
      { status: 400, error: 'schema_ref_unsupported:lookup' },
    ],
    [
      'schema with $defs',
      { inline: [tool({ input_schema: { type: 'object', $defs: { a: { type: 'string' } } } })] },
      hook,
      { status: 400, error: 'schema_ref_unsupported:lookup' },
    ],
    [
      'a property named $ref is fine',
      {
        inline: [
          tool({ input_schema: { type: 'object', properties: { $ref: { type: 'string' } } } }),
        ],
      },
      hook,
      'ok',
    ],
    [
      'unknown field in a definition',
      { inline: [tool({ colour: 'red' })] },
      hook,
      {
        status: 400,
        error: 'unknown_tools_field:colour',
        detail:
          'colour: not a tool definition field (allowed: name, description, input_schema, timeout_ms, idempotent, fast, speak_hint, cover_line)',
      },
    ],
    [
      'two inline tools with one name',
      { inline: [tool(), tool()] },
      hook,
      { status: 409, error: 'tool_name_conflict' },
    ],
    ['max_calls 0', { max_calls: 0 }, {}, { status: 400, error: 'invalid_max_calls' }],
    ['max_calls 101', { max_calls: 101 }, {}, { status: 400, error: 'invalid_max_calls' }],
    [
      'max_calls not an integer',
      { max_calls: 2.5 },
      {},
      { status: 400, error: 'invalid_max_calls' },
    ],
    ['max_calls 1', { max_calls: 1 }, {}, 'ok'],
  ];
  it.each(cases)('%s', (_name, input, opts, expected) => {
    expect(outcome(validateTools(input, opts))).toEqual(expected);
  });

  it('clamps timeout_ms to 1,000..25,000 and defaults it to 8,000', () => {
    const r = validateTools(
      {
        inline: [
          tool({ name: 'a', timeout_ms: 10 }),
          tool({ name: 'b', timeout_ms: 90_000 }),
          tool({ name: 'c' }),
          tool({ name: 'd', timeout_ms: 3000 }),
        ],
      },
      hook,
    );
    expect(r.ok && r.value.inline.map((t) => t.timeout_ms)).toEqual([1000, 25_000, 8000, 3000]);
  });

  it('checks resolved tools at mint: conflict, count and nothing resolved', () => {
    expect(outcome(checkResolvedTools(['a', 'b', 'a'], true))).toEqual({
      status: 409,
      error: 'tool_name_conflict',
    });
    expect(outcome(checkResolvedTools([], true))).toEqual({
      status: 400,
      error: 'no_tools_resolved',
    });
    expect(outcome(checkResolvedTools([], false))).toBe('ok');
    expect(
      outcome(
        checkResolvedTools(
          Array.from({ length: 17 }, (_, i) => `t${i}`),
          true,
        ),
      ),
    ).toEqual({ status: 400, error: 'too_many_tools' });
    expect(applyAllow([{ name: 'a' }, { name: 'b' }], ['b']).map((t) => t.name)).toEqual(['b']);
  });

  it('merges extra_tools: extra wins a name collision, servers are united', () => {
    const base = validateTools({
      servers: ['s1'],
      inline: [tool({ name: 'a', description: 'base' })],
      max_calls: 5,
    });
    const extra = validateTools({
      servers: ['s2'],
      inline: [tool({ name: 'a', description: 'extra' })],
    });
    expect(base.ok && extra.ok).toBe(true);
    if (!base.ok || !extra.ok) return;
    const m = mergeTools(base.value, extra.value);
    expect(m.ok && m.value.servers).toEqual(['s1', 's2']);
    expect(m.ok && m.value.inline.map((t) => t.description)).toEqual(['extra']);
    expect(m.ok && m.value.max_calls).toBe(5);
    const five = mergeTools(
      { servers: ['a', 'b', 'c'], inline: [] },
      { servers: ['d', 'e'], inline: [] },
    );
    expect(outcome(five)).toEqual({ status: 400, error: 'too_many_mcp_servers' });
  });

  it('never fails on a malformed stored tools_json (spec 7)', () => {
    expect(parseStoredTools('{not json')).toBeNull();
    expect(parseStoredTools(JSON.stringify({ mode: 1 }))).toBeNull();
    expect(parseStoredTools(JSON.stringify({ servers: ['a'] }))).toEqual({
      servers: ['a'],
      inline: [],
    });
  });

  it('refuses tools plus context over 128 KB', () => {
    expect(outcome(checkAgentPayload({ servers: [] }, { backstory: 'x'.repeat(132_000) }))).toEqual(
      {
        status: 400,
        error: 'agent_payload_too_large',
      },
    );
    expect(outcome(checkAgentPayload({ servers: [] }, { backstory: 'x'.repeat(1000) }))).toBe('ok');
  });
});

describe('agent object (spec 2, spec 7)', () => {
  const cases: [string, unknown, object, unknown][] = [
    ['absent', undefined, {}, 'ok'],
    ['https hook', { hook: 'https://h.example.com/x', tok: 't', conv: 'c', v: 2 }, {}, 'ok'],
    [
      'http hook',
      { hook: 'http://h.example.com/x' },
      {},
      { status: 400, error: 'invalid_agent_hook' },
    ],
    [
      'http hook with the insecure relaxation',
      { hook: 'http://127.0.0.1:9/x' },
      { allowInsecure: true },
      'ok',
    ],
    ['hook not a URL', { hook: 'nope' }, {}, { status: 400, error: 'invalid_agent_hook' }],
    [
      'over 1,024 bytes',
      { hook: 'https://h.example.com/x', tok: 't'.repeat(1024) },
      {},
      { status: 400, error: 'agent_claim_too_large' },
    ],
    [
      'not an object',
      'x',
      {},
      { status: 400, error: 'invalid_request', detail: 'agent: expected an object' },
    ],
  ];
  it.each(cases)('%s', (_name, input, opts, expected) => {
    expect(outcome(validateAgent(input, opts))).toEqual(expected);
  });

  it('keeps the object verbatim (it becomes the agent claim)', () => {
    const agent = {
      hook: 'https://h.example.com/x',
      tok: 'secret',
      conv: 'c1',
      v: { n: 1 },
      extra: true,
    };
    expect(validateAgent(agent)).toEqual({ ok: true, value: agent });
  });
});
