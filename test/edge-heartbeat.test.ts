import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';

/**
 * Issue 8 review: a client that vanishes without closing (laptop lid, dropped network)
 * must not hold its seat until the cap: the box pings every socket and drops one that
 * misses a pong, which ends the session like any socket loss (spec 3).
 */

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0, clock });
const status = async (id: string) => (await h.api(`/api/v1/sessions/${id}`)).body.status;

describe('socket heartbeat', () => {
  it('a live client answers pings and stays; a silent one is dropped and its session ends', async () => {
    const mint = () => mintSession(h, { session_cap_seconds: 3600 });
    const a = await mint();
    const b = await mint();
    const live = await openSock(wsUrl(a.connect_url, '/events', a.session_token));
    const gone = await openSock(wsUrl(b.connect_url, '/events', b.session_token));
    // The vanished client reads nothing more, so it never answers a ping.
    (gone.ws as any)._socket.pause();
    for (let i = 0; i < 3; i++) {
      const pinged = new Promise((r) => live.ws.once('ping', r));
      clock.advance(15_000);
      await pinged;
      // ws answers the ping before emitting it; a message sent now reaches the box after the
      // pong, so its reply (an error: /events is downlink only) proves the pong arrived.
      const errs = live.json.filter((m) => m.type === 'error').length;
      live.ws.send('x');
      await until(
        () => live.json.filter((m) => m.type === 'error').length,
        (n) => n > errs,
      );
    }
    await until(
      () => status(b.session_id),
      (s) => s === 'ended',
    );
    expect(await status(a.session_id)).toBe('active');
    live.close();
  });
});
