/**
 * POST /chat on the box counts characters (code points), as the spec and the v2 socket do,
 * and refuses blank text: the body is the contract's ChatText (src/contract/edge/messages.ts).
 * 4,096 emoji are 8,192 UTF-16 units: accepted; 4,097 refused with 400 invalid_request
 * naming `text`; blank text is no turn. An end the control plane decides (idle, script,
 * cap) ends the session on its box too, so /chat then answers 410.
 */
import { describe, expect, it } from 'vitest';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ mintRatePerMinute: 0 });

async function chat(
  text: string | undefined,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const m = await h.api('/api/v1/sessions', {
    body: { persona: 'ava', config: { render: false } },
  });
  expect(m.status).toBe(201);
  const r = await fetch(`${m.body.connect_url}/chat?token=${m.body.session_token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // undefined: an empty body, no bytes at all.
    body: text === undefined ? '' : JSON.stringify({ text }),
  });
  const body = (await r.json()) as Record<string, unknown>;
  // Release the seat so the next mint has one (the plan allows one live session).
  expect((await h.api(`/api/v1/sessions/${m.body.session_id}/release`, { body: {} })).status).toBe(
    200,
  );
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

  it.each([[''], ['   '], ['   \n\t']])(
    'refuses blank text %j with 400 invalid_request, text: not blank',
    async (text) => {
      const r = await chat(text);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_request', detail: 'text: not blank' });
    },
  );

  it('refuses an empty body (no bytes) with 400 invalid_json: no bytes are not JSON', async () => {
    const r = await chat(undefined);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'invalid_json' });
  });
});

describe('an end the control plane decides reaches the box whatever its reason', () => {
  it.each([['idle'], ['script'], ['cap']])(
    'after an end with reason %s the box refuses /chat with 410 session_ended',
    async (reason) => {
      const m = await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false } },
      });
      expect(m.status).toBe(201);
      const url = `${m.body.connect_url}/chat?token=${m.body.session_token}`;
      const say = () =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'hello' }),
        });
      expect((await say()).status).toBe(200);
      // As the idle reaper, a script or the cap end it: settles once the box has heard.
      await sessionRuntime(h.emu.ctx).endSession(m.body.session_id, reason);
      const after = await say();
      expect(after.status).toBe(410);
      expect(await after.json()).toMatchObject({ error: 'session_ended' });
    },
  );
});
