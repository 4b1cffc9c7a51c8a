import { describe, expect, it } from 'vitest';
import { openSock, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 8 review: a client that sends seconds of audio in one message (a common first-try
 * mistake) gets `bad_frame_size` naming the rule, not a bare 1009 close with no reason.
 */

const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

describe('oversized uplink messages', () => {
  it('three seconds of PCM in one message gets bad_frame_size and the socket goes on', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    mic.ws.send(Buffer.alloc(3 * 32_000));
    const e = await mic.next((x) => x.type === 'error');
    expect(e).toMatchObject({
      error: 'bad_frame_size',
      detail: expect.stringMatching(/3200 bytes\); got 96000 bytes: split it into 30 frames/),
    });
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'x'.repeat(100_000) }));
    await mic.next((x) => x.type === 'error' && x.error === 'invalid_message');
    expect(mic.ws.readyState).toBe(mic.ws.OPEN);
    mic.close();
  });

  it('a /chat body past 64 KB gets 413 payload_too_large (read no further), and the session goes on', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body;
    const url = `${m.connect_url}/chat?token=${m.session_token}`;
    const big = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ text: 'a'.repeat(200_000) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      error: 'payload_too_large',
      message: expect.stringMatching(/65536 bytes/),
    });
    // Streamed with no content-length: cut off at the limit all the same.
    const chunks = new ReadableStream({
      start(ctl) {
        for (let i = 0; i < 20; i++) ctl.enqueue(new TextEncoder().encode('x'.repeat(10_000)));
        ctl.close();
      },
    });
    const streamed = await fetch(url, {
      method: 'POST',
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const ok = await fetch(url, { method: 'POST', body: JSON.stringify({ text: 'hi' }) });
    expect(ok.status).toBe(200);
  });
});
