import { describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { png } from './helpers/avatar-media.js';

/** Issue 8 / spec 4.7: a custom avatar's session renders its uploaded photo, fetched by the box over the internal box API. */

describe('custom avatar session', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0, idleMedia: false });

  it('streams media for an uploaded photo (no idle loop yet: the still loop plays); the media route refuses anyone but the box', async () => {
    const a = (await h.api('/api/v1/avatars', { body: { name: 'Photo', kind: 'custom' } })).body;
    const v = (
      await h.api(`/api/v1/avatars/${a.id}/versions`, { body: { system_prompt: 'You are Photo.' } })
    ).body;
    expect((await h.api(v.upload_url, { raw: png(), type: 'image/png' })).status).toBe(200);
    const m = (
      await h.api('/api/v1/sessions', {
        body: { avatar_id: a.id, config: { greeting_enabled: false } },
      })
    ).body;
    expect(m.session_id).toBeDefined();

    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    expect((await mse.next((x) => typeof x.mime === 'string')).mime).toMatch(/avc1/);
    await until(
      () => mse.bin.length,
      (n) => n >= 4,
    );
    expect(mse.bin[0]!.subarray(4, 8).toString()).toBe('ftyp');

    const box = (await h.api('/_emulator/boxes')).body.data[0];
    for (const auth of [undefined, 'Bearer nope']) {
      const r = await fetch(
        `${h.baseUrl}/_internal/boxes/${box.id}/sessions/${m.session_id}/media/face`,
        { headers: auth ? { authorization: auth } : {} },
      );
      expect(r.status).toBe(401);
    }
    mse.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
  }, 40_000);
});
