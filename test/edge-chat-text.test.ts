/**
 * POST /chat on the box counts characters (code points), as the spec and the v2 socket do,
 * and refuses blank text: the body is the contract's ChatText (src/contract/edge/messages.ts).
 * 4,096 emoji are 8,192 UTF-16 units: accepted; 4,097 refused with 400 invalid_request
 * naming `text`; blank text is no turn.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ mintRatePerMinute: 0 });

async function chat(text: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const m = await h.api('/api/v1/sessions', { body: { persona: 'ava', config: { render: false } } });
  expect(m.status).toBe(201);
  const r = await fetch(`${m.body.connect_url}/chat?token=${m.body.session_token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  const body = (await r.json()) as Record<string, unknown>;
  // End the session so the next mint has a seat.
  await h.api(`/api/v1/sessions/${m.body.session_id}/end`, { method: 'POST', body: {} });
  return { status: r.status, body };
}

describe('POST /chat counts characters and refuses blank text', () => {
  it('takes 4,096 emoji (8,192 UTF-16 units) as one typed turn', async () => {
    const r = await chat('😀'.repeat(4096));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, speech_id: expect.any(String) });
  });

  it('refuses 4,097 emoji with 400 invalid_request naming text', async () => {
    const r = await chat('😀'.repeat(4097));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: 'invalid_request',
      detail: 'text: at most 4096 characters',
    });
  });

  it.each([[''], ['   \n\t']])('refuses blank text %j with 400 invalid_request', async (text) => {
    const r = await chat(text);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_request' });
    expect(String(r.body.detail)).toMatch(/^text: /);
  });
});
