import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { addBox, removeBox } from '../src/emulator/fleet/spawn.js';
import { openSock, roundTrip, refusal, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';

/** Issue 8: session tokens on the upgrade and on /chat (spec 4.6, 5.4), and bad mic frames (spec 6.1). */

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({ boxes: 1, seats: 8, mintRatePerMinute: 0, clock });
const chat = (url: string, init: RequestInit = {}) =>
  fetch(url, { method: 'POST', body: JSON.stringify({ text: 'hi' }), ...init });

describe('session tokens', () => {
  it('missing, tampered, expired and other-box tokens are refused on every upgrade and on /chat, with the error envelope', async () => {
    const m = await mintSession(h);
    for (const path of ['/mse', '/mic_stream', '/events']) {
      const missing = await refusal(wsUrl(m.connect_url, path));
      expect(missing).toMatchObject({
        status: 401,
        body: { error: 'unauthorized', message: expect.stringMatching(/token/) },
      });
      const [hd, pl, sig] = m.session_token.split('.');
      const payload = JSON.parse(Buffer.from(pl!, 'base64url').toString());
      payload.session.cap_seconds = 3600;
      const tampered = `${hd}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
      expect((await refusal(wsUrl(m.connect_url, path, tampered))).status).toBe(401);
      const forged = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new Uint8Array(32));
      expect((await refusal(wsUrl(m.connect_url, path, forged))).status).toBe(401);
    }
    expect((await chat(`${m.connect_url}/chat`)).status).toBe(401);
    const bad = await chat(`${m.connect_url}/chat?token=${m.session_token.slice(0, -4)}AAAA`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toMatchObject({ error: 'unauthorized' });

    // A token minted for another box: 403 wrong_box there, on the upgrade and on /chat.
    const other = await addBox(h.emu.ctx, { seats: 0 });
    const wrong = await refusal(wsUrl(other.baseUrl, '/mic_stream', m.session_token));
    expect(wrong).toMatchObject({ status: 403, body: { error: 'wrong_box' } });
    const wrongChat = await chat(`${other.baseUrl}/chat?token=${m.session_token}`);
    expect(wrongChat.status).toBe(403);
    await removeBox(h.emu.ctx, other.id);

    // Nothing above made the session active.
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('pending');
    // Past expires_at (spec 4.5: a connect deadline) the token is refused.
    clock.advance(61_000);
    const expired = await refusal(wsUrl(m.connect_url, '/mse', m.session_token));
    expect(expired).toMatchObject({ status: 401, body: { error: 'token_expired' } });
    expect(
      (
        await chat(`${m.connect_url}/chat`, {
          headers: { authorization: `Bearer ${m.session_token}` },
        })
      ).status,
    ).toBe(401);
    // Never connected: the idle reaper ended it (pendingIdleS 60).
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('ended');
  });

  it('Authorization: Bearer works on the upgrade; once connected, the token keeps serving /chat and more sockets after its connect deadline', async () => {
    const m = await mintSession(h);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream'), {
      headers: { authorization: `Bearer ${m.session_token}` },
    });
    clock.advance(120_000);
    const ev = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const r = await chat(`${m.connect_url}/chat?token=${m.session_token}`);
    expect(r.status).toBe(200);
    mic.close();
    ev.close();
    await Promise.all([mic.closed, ev.closed]);
  });

  it('/chat refuses bad bodies with 400 and the envelope, and sets no CORS headers even on a preflight', async () => {
    const m = await mintSession(h);
    const u = `${m.connect_url}/chat?token=${m.session_token}`;
    const notJson = await fetch(u, { method: 'POST', body: '{nope' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: 'invalid_json' });
    for (const body of [{}, { text: '' }, { text: 42 }, { text: 'x'.repeat(4097) }]) {
      const r = await fetch(u, { method: 'POST', body: JSON.stringify(body) });
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ error: 'invalid_request' });
    }
    const pre = await fetch(u, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a v1 session cannot open /v2/session and v2 needs its subprotocol', async () => {
    const v1 = await mintSession(h);
    expect(
      await refusal(wsUrl(v1.connect_url, '/v2/session', v1.session_token), {
        protocols: ['svc.avatar.v2'],
      }),
    ).toMatchObject({ status: 400, body: { error: 'protocol_mismatch' } });
    const v2 = await mintSession(h, { protocol_versions: [2] });
    expect(await refusal(wsUrl(v2.connect_url, '/v2/session', v2.session_token))).toMatchObject({
      status: 400,
      body: { error: 'subprotocol_required' },
    });
    expect(await refusal(wsUrl(v2.connect_url, '/mse', v2.session_token))).toMatchObject({
      status: 400,
      body: { error: 'protocol_mismatch' },
    });
    expect(await refusal(wsUrl(v2.connect_url, '/nope', v2.session_token))).toMatchObject({
      status: 404,
    });
  });
});

describe('bad mic input (spec 4.6, 6.1)', () => {
  it('a frame before hello, a wrong frame size, bad text and a bad hello each get an error message; the socket and session go on', async () => {
    const m = await mintSession(h);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const errors = () => mic.json.filter((x) => x.type === 'error');
    mic.ws.send(Buffer.alloc(3200));
    // v1 names its own hello message (spec 6.1).
    expect(await mic.next((x) => x.error === 'hello_required')).toMatchObject({
      detail: expect.stringContaining('{ "op": "hello", "lang": "en" }'),
    });
    mic.ws.send('not json');
    await mic.next((x) => x.error === 'invalid_message');
    mic.ws.send(JSON.stringify({ op: 'dance' }));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 7 }));
    mic.ws.send(JSON.stringify([1, 2]));
    await roundTrip(mic);
    expect(errors().filter((e) => e.error === 'invalid_message')).toHaveLength(4);
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    mic.ws.send(Buffer.alloc(3199));
    const size = await mic.next((x) => x.error === 'bad_frame_size');
    expect(size.detail).toMatch(/3200 bytes/);
    mic.ws.send(Buffer.alloc(6400));
    mic.ws.send(Buffer.alloc(3200)); // a good zeroed frame: no error
    await roundTrip(mic);
    expect(errors().filter((e) => e.error === 'bad_frame_size')).toHaveLength(2);
    for (const e of errors())
      expect(e).toEqual({ type: 'error', error: expect.any(String), detail: expect.any(String) });
    expect(mic.ws.readyState).toBe(mic.ws.OPEN);
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    mic.close();
    await mic.closed;
  });
});
