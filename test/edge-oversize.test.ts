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
    const m = (await h.api('/api/v1/sessions', { body: { persona: 'ava', config: { render: false, greeting_enabled: false } } })).body;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    mic.ws.send(Buffer.alloc(3 * 32_000));
    const e = await mic.next((x) => x.type === 'error');
    expect(e).toMatchObject({ error: 'bad_frame_size', detail: expect.stringMatching(/3200 bytes\); got 96000 bytes: split it into 30 frames/) });
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'x'.repeat(100_000) }));
    await mic.next((x) => x.type === 'error' && x.error === 'invalid_message');
    expect(mic.ws.readyState).toBe(mic.ws.OPEN);
    mic.close();
  });
});
