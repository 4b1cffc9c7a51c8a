import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fillPath, pathParamNames, type AnyOperation } from '../src/contract/operation.js';
import { allOperations } from '../src/contract/operations/index.js';
import { runningBoxes } from '../src/emulator/fleet/spawn.js';
import { baseForm } from '../src/models/brain/lexicon.js';
import { useEmulator } from './helpers/emulator.js';
import { samplePath } from './helpers/operations.js';
import { waitUntil } from './helpers/wait.js';

/**
 * A user-named key that is also a name on Object.prototype (issue 32 item 4: `PUT
 * .../builtin-servers/constructor` answered 500): every operation of the contract's table, in
 * every family, gets `constructor`, `__proto__`, `toString` and `hasOwnProperty` as each path
 * parameter, each string query field, and each string, enum, string-array and map-key field
 * of a body otherwise made from its schema. No answer may be a 5xx.
 */
const HOSTILE = ['constructor', '__proto__', 'toString', 'hasOwnProperty'] as const;
const h = useEmulator({
  seats: 4,
  mintRatePerMinute: 0,
  inferenceRateLimits: false,
  allowInsecureUrls: true,
});

type Schema = Record<string, any>;

/** A value the schema accepts, as small as can be (fields that are not required left out). */
function sample(s: Schema, defs: Schema, depth = 0): unknown {
  if (depth > 8) return null;
  if (s.$ref) return sample(defs[String(s.$ref).replace('#/$defs/', '')] ?? {}, defs, depth + 1);
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return sample(alt.find((a: Schema) => a.type !== 'null') ?? alt[0], defs, depth + 1);
  if (s.allOf) return sample(s.allOf[0], defs, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const k of s.required ?? []) out[k] = sample(s.properties?.[k] ?? {}, defs, depth + 1);
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}, defs, depth + 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'string':
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'uri') return 'https://example.com/x';
      if (s.format === 'email') return 'a@example.com';
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    default:
      return {};
  }
}

/**
 * Variants of a value of schema `s` with `v` in one place each: a string or enum field, a
 * string array's item, a map's key, recursively through objects and arrays.
 */
function variants(s: Schema, defs: Schema, v: string, depth = 0): unknown[] {
  if (depth > 6) return [];
  if (s.$ref)
    return variants(defs[String(s.$ref).replace('#/$defs/', '')] ?? {}, defs, v, depth + 1);
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return alt.flatMap((a: Schema) => variants(a, defs, v, depth + 1));
  if (s.allOf) return variants(s.allOf[0], defs, v, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'string' || (s.enum && s.enum.some((e: unknown) => typeof e === 'string')))
    return [v];
  if (type === 'array') return variants(s.items ?? {}, defs, v, depth + 1).map((item) => [item]);
  if (type === 'object' || s.properties) {
    const base = sample(s, defs) as Record<string, unknown>;
    const out: unknown[] = [];
    if (s.additionalProperties !== false)
      out.push({ ...base, [v]: sample(s.additionalProperties ?? {}, defs) });
    for (const [k, p] of Object.entries((s.properties ?? {}) as Schema))
      for (const value of variants(p, defs, v, depth + 1)) out.push({ ...base, [k]: value });
    return out;
  }
  return [];
}

const jsonSchema = (schema: z.ZodType): Schema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;

/** The JSON text of a body whose `{ __proto__: ... }` objects keep `__proto__` as a key. */
function toJson(body: unknown): string {
  return JSON.stringify(body, (_k, value) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const own: Record<string, unknown> = {};
      for (const k of Object.keys(value))
        Object.defineProperty(own, k, { value: value[k], enumerable: true });
      return own;
    }
    return value;
  });
}

describe('structures keyed by user-named keys', () => {
  it('workflow nodes named after prototype members run and read each other', async () => {
    const key = h.emu.keys.dashboardKey;
    const [a, b, c, d] = HOSTILE;
    const nodes = {
      [a]: { model_id: 'avatar-chat', task: 'prompt-rewrite', payload: { prompt: 'a cat' } },
      [b]: {
        model_id: 'avatar-chat',
        task: 'prompt-rewrite',
        payload: { prompt: `\${nodes.${a}.result.prompt}` },
      },
      [c]: {
        model_id: 'avatar-embed',
        task: 'embedding',
        payload: { input: `\${nodes.${b}.result.prompt}` },
      },
      [d]: {
        model_id: 'avatar-chat',
        task: 'prompt-rewrite',
        payload: { prompt: `\${nodes.${b}.result.prompt} again` },
        outputs: ['prompt'],
      },
    };
    const wf = await h.api('/api/workflows', {
      key,
      raw: Buffer.from(toJson({ name: 'wf', dag: { nodes, edges: [[a, d]] } })),
      type: 'application/json',
      method: 'POST',
    });
    expect(wf.status, JSON.stringify(wf.body)).toBe(201);
    const ex = await h.api(`/api/workflows/${wf.body.workflow.id}/execute`, {
      key,
      body: { input_params: {} },
    });
    expect(ex.status, JSON.stringify(ex.body)).toBe(201);
    let done: any;
    await waitUntil(async () => {
      done = (await h.api(`/api/workflows/executions/${ex.body.execution.id}`, { key })).body
        .execution;
      return done.status !== 'pending' && done.status !== 'running';
    }, 20_000);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect(Object.keys(done.nodes).sort()).toEqual([...HOSTILE].sort());
    expect(done.nodes[d].result.prompt).toMatch(/^A cat/);
  });

  it('inline tools named after prototype members resolve at mint, each once', async () => {
    const tools = HOSTILE.map((name) => ({
      name,
      description: `the ${name} tool`,
      input_schema: { type: 'object' },
    }));
    const r = await h.api('/api/v1/sessions', {
      raw: Buffer.from(
        toJson({
          persona: 'ava',
          agent: { hook: 'http://127.0.0.1:9/hook' },
          tools: { inline: tools, allow: [...HOSTILE] },
        }),
      ),
      type: 'application/json',
      method: 'POST',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.tools_resolved).toEqual([...HOSTILE]);
    await h.api(`/api/v1/sessions/${r.body.session_id}/release`, { body: {} });
  });

  it('words of a text that are prototype names are words (the brain`s lexicon)', () => {
    for (const w of HOSTILE) expect(baseForm(w)).toBe(w);
  });
});

describe('prototype names as user-named keys never answer 5xx', () => {
  const credential = (op: AnyOperation): string | undefined => {
    switch (op.family ?? 'control') {
      case 'inference':
        return h.emu.keys.dashboardKey;
      case 'operator':
        return h.emu.operatorToken;
      case 'control':
        return op.auth === 'public' ? undefined : h.emu.keys.secretKey;
      default:
        return undefined;
    }
  };
  const base = (op: AnyOperation) =>
    op.family === 'edge' ? runningBoxes(h.emu.ctx)[0]!.baseUrl : h.baseUrl;

  async function send(op: AnyOperation, path: string, body: unknown): Promise<string | null> {
    const key = credential(op);
    const headers: Record<string, string> = {};
    if (key) headers.authorization = `Bearer ${key}`;
    let payload: string | undefined;
    if (body !== undefined && op.method !== 'get') {
      headers['content-type'] = 'application/json';
      payload = toJson(body);
    }
    const res = await fetch(base(op) + path, {
      method: op.method.toUpperCase(),
      headers,
      body: payload,
    });
    const text = await res.text();
    return res.status >= 500
      ? `${res.status} ${op.method.toUpperCase()} ${path} ${payload ?? ''} -> ${text.slice(0, 200)}`
      : null;
  }

  it.each(allOperations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s',
    async (_name, op) => {
      const ws = h.emu.keys.workspaceId;
      const bodySchema = op.body ? jsonSchema(op.body) : null;
      const defs = (bodySchema?.$defs ?? {}) as Schema;
      const body = bodySchema ? sample(bodySchema, defs) : undefined;
      const failures: string[] = [];
      const good = samplePath(op, ws);
      for (const v of HOSTILE) {
        for (const p of pathParamNames(op.path)) {
          const params = Object.fromEntries(
            pathParamNames(op.path).map((n) => [n, decodeURIComponent(pathPart(op, good, n))]),
          );
          params[p] = v;
          const f = await send(op, fillPath(op.path, params), body);
          if (f) failures.push(f);
        }
        for (const [name, field] of Object.entries(op.query?.shape ?? {})) {
          if (!(field as z.ZodType).safeParse(v).success && !jsonSchema(field as z.ZodType).enum)
            continue;
          const f = await send(op, `${good}?${name}=${encodeURIComponent(v)}`, body);
          if (f) failures.push(f);
        }
        if (bodySchema)
          for (const b of variants(bodySchema, defs, v)) {
            const f = await send(op, good, b);
            if (f) failures.push(f);
          }
      }
      expect(failures).toEqual([]);
    },
    60_000,
  );

  it('the emulator still serves after all of the above', async () => {
    expect((await h.fetch('/_emulator/health')).status).toBe(200);
  });
});

/** The value samplePath put in for one parameter. */
function pathPart(op: AnyOperation, filled: string, name: string): string {
  const names = pathParamNames(op.path);
  const pattern = new RegExp(
    `^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, '([^/]+)')}$`,
  );
  const m = pattern.exec(filled);
  return m?.[names.indexOf(name) + 1] ?? 'x';
}
