import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/** Issue 8 review: raw captures live 30 days after the session ends, on the emulator clock (spec 4.5, 8). */

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0, clock });

describe('capture retention', () => {
  it('a recording is listed until 30 days after the end, then swept', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: {
          persona: 'ava',
          recording: true,
          config: { render: false, greeting_enabled: false },
        },
      })
    ).body;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    for (let i = 0; i < 3; i++) mic.ws.send(Buffer.alloc(3200));
    mic.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
    const endedAt = Math.floor(clock.now() / 1000);
    const list = await until(
      () => h.api(`/_emulator/sessions/${m.session_id}/recordings`),
      (r) => r.status === 200 && r.body.data.some((f: any) => f.name === 'mic.wav'),
    );
    // Brain-only: no media was rendered, so there is no video to offer (not an empty file).
    expect(list.body.data.map((f: any) => f.name)).toEqual(['mic.wav']);
    expect(list.body.expires_at).toBe(endedAt + 30 * 86400);

    clock.advance(30 * 86400_000 - 60_000);
    expect((await h.api(`/_emulator/sessions/${m.session_id}/recordings`)).status).toBe(200);
    clock.advance(61_000);
    const gone = await h.api(`/_emulator/sessions/${m.session_id}/recordings`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toMatch(/retention/);
  });
});
