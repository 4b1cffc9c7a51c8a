import { describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/** Issue 8: the v2 socket (docs/protocol-v2.md): one socket, JSON control text, tagged binary. */

describe('/v2/session', () => {
  const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

  it('announces the session, takes hello + chat + tagged mic frames on one socket, answers turns, and refuses bad frames with errors', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: {
          persona: 'ava',
          protocol_versions: [2],
          config: { render: false, greeting_enabled: false },
        },
      })
    ).body;
    expect(m.protocol_version).toBe(2);
    const s = await openSock(wsUrl(m.connect_url, '/v2/session', m.session_token), {
      protocols: ['svc.avatar.v2'],
    });
    expect(s.ws.protocol).toBe('svc.avatar.v2');
    expect(await s.next((x) => x.type === 'session')).toEqual({
      type: 'session',
      protocol: 2,
      session_id: m.session_id,
      mime: null,
      render: false,
      cap_seconds: m.cap_seconds,
    });
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'active',
    );

    s.ws.send(Buffer.concat([Buffer.from([0x02]), Buffer.alloc(3200)]));
    // The detail names v2's hello (docs/protocol-v2.md), not v1's `op` message, which v2 refuses.
    const early = await s.next((x) => x.type === 'error');
    expect(early).toMatchObject({
      error: 'hello_required',
      detail: expect.stringContaining('{ "type": "hello", "lang": "en" }'),
    });
    expect(early.detail).not.toMatch(/"op"/);
    s.ws.send(JSON.stringify({ type: 'hello', lang: 'en' }));
    s.ws.send(Buffer.concat([Buffer.from([0x01]), Buffer.alloc(3200)]));
    expect(await s.next((x) => x.error === 'bad_tag')).toMatchObject({
      detail: expect.stringMatching(/0x02/),
    });
    s.ws.send(Buffer.concat([Buffer.from([0x02]), Buffer.alloc(100)]));
    await s.next((x) => x.error === 'bad_frame_size');
    s.ws.send(JSON.stringify({ type: 'what' }));
    await s.next((x) => x.error === 'invalid_message');
    s.ws.send(JSON.stringify({ type: 'ping' }));
    await s.next((x) => x.type === 'pong');
    await s.next((x) => x.type === 'status');

    s.ws.send(JSON.stringify({ type: 'chat', text: 'Tell me about yourself' }));
    const ack = await s.next((x) => x.type === 'chat_ack');
    const turn = await s.next((x) => x.type === 'turn');
    expect(turn).toMatchObject({
      text: 'Tell me about yourself',
      speech_id: ack.speech_id,
      language: 'en',
      brain: expect.any(Object),
    });
    // One socket carries control and events: the turn arrives once, not twice.
    expect(s.json.filter((x) => x.type === 'turn')).toHaveLength(1);

    s.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
    const t = await h.api(`/api/v1/sessions/${m.session_id}/transcript`);
    expect(t.body).toMatchObject({
      source: 'store',
      count: 1,
      turns: [{ user_text: 'Tell me about yourself', reply_text: turn.reply }],
    });
  });
});
