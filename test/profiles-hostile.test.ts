/**
 * Hostile bodies on the profile and version routes: each gets a spec envelope (4xx),
 * never a 500, and the emulator keeps serving.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ idleMedia: false });

async function send(path: string, method: string, text?: string) {
  const res = await h.fetch(path, {
    method,
    body: text,
    headers: text === undefined ? {} : { 'content-type': 'application/json' },
    key: h.emu.keys.secretKey,
  });
  const body = await res.text();
  return { status: res.status, body: body ? (JSON.parse(body) as any) : undefined };
}

const deep = (levels: number, leaf = '1') => '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);

async function avatar() {
  const a = (
    await send('/api/v1/avatars', 'POST', JSON.stringify({ name: 'Hostile', kind: 'custom' }))
  ).body;
  await send(`/api/v1/avatars/${a.id}/versions`, 'POST', JSON.stringify({ source_persona: 'ava' }));
  return a.id as string;
}

describe('profile and version bodies nested beyond reason', () => {
  it('a deep profile config_json is 400 invalid_config_json config_too_large', async () => {
    const id = await avatar();
    const r = await send(
      `/api/v1/avatars/${id}/profiles`,
      'POST',
      `{"config_json":${deep(30_000)}}`,
    );
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_too_large' },
    });
  });

  it('a deep tool input_schema is 400 schema_too_large:<name>', async () => {
    const id = await avatar();
    const schema = `{"type":"object","properties":${deep(30_000)}}`;
    const r = await send(
      `/api/v1/avatars/${id}/profiles`,
      'POST',
      `{"tools_json":{"inline":[{"name":"t","description":"d","input_schema":${schema}}]}}`,
    );
    expect(r).toMatchObject({ status: 400, body: { error: 'schema_too_large:t' } });
  });

  it('a deep version config_json is 400 invalid_config_json config_too_large', async () => {
    const id = await avatar();
    const r = await send(
      `/api/v1/avatars/${id}/versions`,
      'POST',
      `{"config_json":${deep(30_000)}}`,
    );
    expect(r).toMatchObject({
      status: 400,
      body: { error: 'invalid_config_json', detail: 'config_too_large' },
    });
  });
});

describe('profile text that is not well-formed Unicode', () => {
  // A lone surrogate is legal JSON (`"\ud800"`) but no text: the content hash is defined
  // over canonical JSON (RFC 8785), which cannot encode it.
  it.each([
    ['system_prompt', '{"system_prompt":"hi \\ud800"}'],
    ['backstory', '{"backstory":"\\udfff"}'],
    [
      'tools_json',
      '{"tools_json":{"inline":[{"name":"t","description":"d \\ud800","input_schema":{"type":"object"}}]}}',
    ],
  ])('a lone surrogate in %s is 400 invalid_request', async (field, text) => {
    const id = await avatar();
    const r = await send(`/api/v1/avatars/${id}/profiles`, 'POST', text);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_request' });
    expect(r.body.detail).toMatch(new RegExp(`^${field}`));
    // Nothing was stored: the list holds only the synthesized profile 1.
    expect((await send(`/api/v1/avatars/${id}/profiles`, 'GET')).body.data).toHaveLength(1);
  });

  it('well-formed text outside the BMP is fine and hashes the same in any key order', async () => {
    const id = await avatar();
    const a = await send(
      `/api/v1/avatars/${id}/profiles`,
      'POST',
      JSON.stringify({ system_prompt: 'Grüße 😀 你好', backstory: 'b' }),
    );
    const b = await send(
      `/api/v1/avatars/${id}/profiles`,
      'POST',
      JSON.stringify({ backstory: 'b', system_prompt: 'Grüße 😀 你好' }),
    );
    expect(a.status).toBe(201);
    expect(b).toMatchObject({ status: 200, body: { id: a.body.id, created: false } });
    const full = (await send(`/api/v1/avatars/${id}/profiles/${a.body.id}`, 'GET')).body;
    expect(full.system_prompt).toBe('Grüße 😀 你好');
    expect(full.sizes.system_prompt).toBe(Buffer.byteLength('Grüße 😀 你好'));
  });
});
