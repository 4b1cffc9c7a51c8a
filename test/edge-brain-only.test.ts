import { describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';

/** Issue 8: a brain-only (`render: false`) session end to end, over v1 and v2. */

describe('brain-only session (render: false)', () => {
  const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });
  const mint = (extra: Record<string, unknown> = {}) => mintSession(h, extra);
  const status = async (id: string) =>
    (await h.api(`/api/v1/sessions/${id}`)).body.status as string;

  it('pending until a socket connects, active while connected, a /chat turn comes back as text plus a brain payload, ended when the sockets close', async () => {
    const m = await mint();
    expect(await status(m.session_id)).toBe('pending');
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    expect(
      await until(
        () => status(m.session_id),
        (s) => s === 'active',
      ),
    ).toBe('active');
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));

    const chat = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Where do you live?' }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get('access-control-allow-origin')).toBeNull();
    const ack = await chat.json();
    expect(ack).toMatchObject({ ok: true, speech_id: expect.any(String) });

    const turn = await mic.next((x) => x.type === 'turn');
    expect(turn).toMatchObject({
      text: 'Where do you live?',
      language: 'en',
      speech_id: ack.speech_id,
    });
    expect(turn.reply.length).toBeGreaterThan(0);
    expect(turn.brain).toMatchObject({
      name: expect.any(String),
      reply: turn.reply,
      usage: { prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) },
    });
    // /events carries the turn too, and status frames with the talk state and the session clock.
    await events.next((x) => x.type === 'turn' && x.speech_id === ack.speech_id);
    const st = await events.next((x) => x.type === 'status');
    expect(st).toMatchObject({
      state: expect.stringMatching(/^(listening|thinking|speaking)$/),
      session_ms: expect.any(Number),
      render: false,
    });

    const live = await until(
      () => h.api(`/api/v1/sessions/${m.session_id}/transcript`),
      (r) => r.body.count === 1,
    );
    expect(live.body).toMatchObject({
      source: 'live',
      turns: [{ seq: 0, user_text: 'Where do you live?', reply_text: turn.reply }],
    });

    mic.close();
    events.close();
    expect(
      await until(
        () => status(m.session_id),
        (s) => s === 'ended',
      ),
    ).toBe('ended');
    const stored = await h.api(`/api/v1/sessions/${m.session_id}/transcript`);
    expect(stored.body).toMatchObject({
      count: 1,
      turns: [{ user_text: 'Where do you live?', reply_text: turn.reply }],
    });
  });

  it('response_language steers the reply language of the turn', async () => {
    const m = await mint({ response_language: 'de' });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    await fetch(`${m.connect_url}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.session_token}` },
      body: JSON.stringify({ text: 'Hello' }),
    });
    const turn = await mic.next((x) => x.type === 'turn');
    expect(turn.language).toBe('de');
    mic.close();
    await mic.closed;
  });

  it('persona mei (zh-CN) greets and answers typed Chinese in Chinese, and each turn reports the language of its reply text', async () => {
    const m = await mint({ persona: 'mei', config: { render: false, greeting_enabled: true } });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello' }));
    const greeting = await mic.next((x) => x.type === 'turn' && x.greeting === true);
    expect(greeting).toMatchObject({
      language: 'zh-CN',
      reply: expect.stringMatching(/^你好，我是Mei/),
    });
    await fetch(`${m.connect_url}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.session_token}` },
      body: JSON.stringify({ text: '你好，你是谁？' }),
    });
    const turn = await mic.next((x) => x.type === 'turn' && !x.greeting);
    expect(turn).toMatchObject({
      text: '你好，你是谁？',
      language: 'zh-CN',
      reply: expect.stringMatching(/我叫Mei/),
    });
    expect(turn.reply.replaceAll('Mei', '')).not.toMatch(/[A-Za-z]/);
    mic.close();
    await mic.closed;
  });

  it('a reply language the brain has no phrases for is reported as the English the reply is in', async () => {
    const m = await mint({ response_language: 'ja' });
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    await fetch(`${m.connect_url}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${m.session_token}` },
      body: JSON.stringify({ text: 'Hello' }),
    });
    expect(await mic.next((x) => x.type === 'turn')).toMatchObject({
      language: 'en',
      reply: expect.stringMatching(/^Hi/),
    });
    mic.close();
    await mic.closed;
  });

  it('release ends the session and closes its sockets with a clear reason', async () => {
    const m = await mint();
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    await until(
      () => status(m.session_id),
      (s) => s === 'active',
    );
    await h.api(`/api/v1/sessions/${m.session_id}/release`, { body: { seat_token: m.seat_token } });
    const c = await mic.closed;
    expect(c.code).toBe(4002);
    expect(c.reason).toMatch(/released/);
    expect(await status(m.session_id)).toBe('ended');
  });
});
