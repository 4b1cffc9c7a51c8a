import { describe, expect, it } from 'vitest';
import { parseInit, readFragment } from '../src/media/fmp4.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * A `/mse` socket gets media a decoder can start on (docs/edge.md "Joining the media
 * late"): after the mime and the init segment, the fragments since the last keyframe, then
 * live ones. The first socket of a session included: the box starts the session's timeline
 * while it opens, before that socket is attached.
 */
describe('joining the media', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });

  it('the first media a /mse socket gets starts on a keyframe, whenever it joins', async () => {
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { greeting_enabled: false } },
      })
    ).body;
    const first = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    // 2.5 s in: past the idle loop's keyframe at 2 s, between keyframes.
    await events.next((x) => x.type === 'status' && x.media_ms > 2500, 15_000);
    const late = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    await until(
      async () => late.bin.length,
      (n) => n >= 3,
    );
    for (const sock of [first, late]) {
      const tracks = parseInit(sock.bin[0]!);
      const media = sock.bin.slice(1).map((b) => readFragment(b, tracks));
      expect(media[0]!.key).toBe(true);
    }
    // The late socket starts at the 2 s keyframe, not at the session's start.
    const tracks = parseInit(late.bin[0]!);
    const v = tracks.find((t) => t.kind === 'video')!;
    const startMs =
      (readFragment(late.bin[1]!, tracks).tracks.find((t) => t.id === v.id)!.start * 1000) /
      v.timescale;
    expect(startMs).toBeGreaterThan(1500);
    expect(startMs).toBeLessThanOrEqual(2600);
    first.close();
    late.close();
    events.close();
  }, 30_000);
});
