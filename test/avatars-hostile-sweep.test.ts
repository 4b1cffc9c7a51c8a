/**
 * Every avatar, version, voice and profile operation, in both route shapes, against real
 * ids, with hostile bodies: each answer is a spec envelope below 500, and the emulator
 * keeps serving afterwards (ARCHITECTURE property 6: bad input never gets a 500).
 */
import { describe, expect, it } from 'vitest';
import { fillPath, pathParamNames, type AnyOperation } from '../src/contract/operation.js';
import { avatarOperations } from '../src/contract/operations/avatars.js';
import { profileOperations } from '../src/contract/operations/profiles.js';
import { voiceOperations } from '../src/contract/operations/voices.js';
import { useEmulator } from './helpers/emulator.js';
import { mp3, png, wav } from './helpers/avatar-media.js';

const h = useEmulator({ idleMedia: false });

async function send(path: string, method: string, body?: BodyInit, type?: string) {
  const res = await h.fetch(path, {
    method,
    body,
    headers: type ? { 'content-type': type } : {},
    key: h.emu.keys.secretKey,
  });
  const text = await res.text();
  return { status: res.status, text };
}

const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const jsonBodies: [string, string | undefined, string | undefined][] = [
  ['no body', undefined, undefined],
  ['empty', '', 'application/json'],
  ['null', 'null', 'application/json'],
  ['array', '[]', 'application/json'],
  ['string', '"x"', 'application/json'],
  ['number 1e999', '1e999', 'application/json'],
  ['not json', '{nope', 'application/json'],
  ['json as text/plain', '{"name":"x"}', 'text/plain'],
  ['deep object', deep(40_000), 'application/json'],
  ['deep array', '['.repeat(40_000) + ']'.repeat(40_000), 'application/json'],
  ['deep config_json', `{"config_json":${deep(40_000)}}`, 'application/json'],
  [
    'deep tool schema',
    `{"tools_json":{"inline":[{"name":"t","description":"d","input_schema":{"type":"object","properties":${deep(40_000)}}}]}}`,
    'application/json',
  ],
  [
    'every field deep',
    `{"name":${deep(5000)},"kind":${deep(5000)},"system_prompt":${deep(5000)},"config_json":${deep(5000)},"tools_json":${deep(5000)},"configJson":${deep(5000)}}`,
    'application/json',
  ],
  [
    'wrong types',
    '{"name":1,"kind":[],"system_prompt":{},"set_default":"yes","inherit_image":"no","configJson":{}}',
    'application/json',
  ],
  [
    'lone surrogates',
    '{"name":"\\ud800","system_prompt":"\\udfff","backstory":"\\ud800x","configJson":"{\\"\\ud800\\":1}"}',
    'application/json',
  ],
  [
    'huge strings',
    JSON.stringify({
      name: 'x'.repeat(300_000),
      system_prompt: 'y'.repeat(300_000),
      description: 'z'.repeat(300_000),
    }),
    'application/json',
  ],
  [
    'nul and controls',
    JSON.stringify({ name: '\u0000\u0001\u202e', system_prompt: '\u0000' }),
    'application/json',
  ],
  [
    'proto keys',
    '{"__proto__":{"name":"x"},"constructor":{"prototype":{}},"config_json":{"__proto__":null}}',
    'application/json',
  ],
];

async function rawBodies(): Promise<[string, Uint8Array, string][]> {
  const m = await mp3(6);
  const w = wav(6);
  return [
    ['zero bytes png', new Uint8Array(), 'image/png'],
    ['zero bytes wav', new Uint8Array(), 'audio/wav'],
    ['png header only', png().subarray(0, 8), 'image/png'],
    ['png truncated', png().subarray(0, 500), 'image/png'],
    ['wav header only', w.subarray(0, 44), 'audio/wav'],
    ['wav truncated', w.subarray(0, 20), 'audio/wav'],
    ['mp3 truncated', m.subarray(0, 50), 'audio/mpeg'],
    ['random bytes', new Uint8Array(4096).map((_, i) => (i * 7919) & 0xff), 'audio/mpeg'],
    ['png as audio', png(), 'audio/wav'],
    ['wav as image', w, 'image/png'],
    ['no content type', png(), ''],
    ['weird content type', png(), 'image/png; charset=";;;"'],
  ];
}

describe('hostile input on every avatar, voice and profile route', () => {
  it('never answers 500', async () => {
    // Real ids so handlers run past their lookups.
    const post = async (p: string, b: unknown) =>
      JSON.parse((await send(p, 'POST', JSON.stringify(b), 'application/json')).text);
    const avatar = await post('/api/v1/avatars', { name: 'Sweep', kind: 'custom' });
    const draft = await post(`/api/v1/avatars/${avatar.id}/versions`, {});
    await post(`/api/v1/avatars/${avatar.id}/versions`, { source_persona: 'leo' });
    const profiles = JSON.parse((await send(`/api/v1/avatars/${avatar.id}/profiles`, 'GET')).text);
    const voice = await post('/api/v1/voices', { name: 'Sweep', kind: 'cloned' });
    const vver = await post(`/api/v1/voices/${voice.id}/versions`, {});
    const ids: Record<string, string> = {
      wsId: h.emu.keys.workspaceId,
      avatarId: avatar.id,
      versionId: draft.id,
      profileId: profiles.default_profile_id,
      voiceId: voice.id,
    };
    const raws = await rawBodies();
    const failures: string[] = [];
    const ops = [...avatarOperations, ...profileOperations, ...voiceOperations] as AnyOperation[];
    for (const op of ops) {
      const params: Record<string, string> = {};
      for (const p of pathParamNames(op.path))
        params[p] = p === 'versionId' && op.path.includes('/voices/') ? vver.id : ids[p]!;
      const path = fillPath(op.path, params);
      const method = op.method.toUpperCase();
      if (op.rawBody) {
        for (const [name, bytes, type] of raws) {
          const r = await send(path, method, Buffer.from(bytes), type || undefined);
          if (r.status >= 500)
            failures.push(`${method} ${op.path} [${name}] -> ${r.status} ${r.text.slice(0, 120)}`);
        }
        continue;
      }
      if (method === 'DELETE') continue; // run last, below: they would remove the ids the others need
      const bodies = method === 'GET' ? jsonBodies.slice(0, 1) : jsonBodies;
      for (const [name, body, type] of bodies) {
        const r = await send(path, method, body, type);
        if (r.status >= 500)
          failures.push(`${method} ${op.path} [${name}] -> ${r.status} ${r.text.slice(0, 120)}`);
      }
      // Hostile query strings too.
      const q = await send(
        `${path}?workspace_id=%00&include_deleted=%F0%9F&version=..%2F..`,
        'GET',
      );
      if (q.status >= 500) failures.push(`GET ${op.path} [query] -> ${q.status}`);
    }
    for (const op of ops.filter((o) => o.method === 'delete')) {
      const params: Record<string, string> = {};
      for (const p of pathParamNames(op.path)) params[p] = ids[p]!;
      const r = await send(fillPath(op.path, params), 'DELETE', '{nope', 'application/json');
      if (r.status >= 500) failures.push(`DELETE ${op.path} -> ${r.status}`);
    }
    expect(failures).toEqual([]);
    // Still serving, data intact.
    expect((await send(`/api/v1/avatars/${avatar.id}`, 'GET')).status).toBe(200);
    expect((await send('/api/v1/workspaces/ws_stock/avatars', 'GET')).status).toBe(200);
  }, 120_000);
});
