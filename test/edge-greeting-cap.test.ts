import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/emulator/clock.js';
import { openSock, type Sock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { settle } from './helpers/wait.js';

/** Issue 8: the greeting and its hold (spec 2 config group), and the session cap (spec 8). */

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({ boxes: 1, seats: 8, mintRatePerMinute: 0, clock });
const mint = async (config: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const r = await h.api('/api/v1/sessions', {
    body: { persona: 'ava', config: { render: false, ...config }, ...extra },
  });
  expect(r.status).toBe(201);
  return r.body as { session_id: string; session_token: string; connect_url: string };
};
const connect = (m: { connect_url: string; session_token: string }) =>
  openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
/**
 * Before a "nothing arrived" check: prove that whatever the box sent on `s` up to now has
 * arrived, with no real-time pause. The box runs in this process: settle() lets the work a
 * clock advance started run (the local brain has no timers), then a round trip on the same
 * socket: a text message the box does not take is answered with an `error` after
 * everything it sent earlier on that socket. A socket the box closed ends the wait too (the
 * checks after it then see the close).
 */
async function flushed(s: Sock): Promise<void> {
  await settle();
  const before = s.json.length;
  s.ws.send(JSON.stringify({ op: 'flush' }));
  await Promise.race([s.next((m) => m.type === 'error' && s.json.indexOf(m) >= before), s.closed]);
}

describe('greeting', () => {
  it('without session context the greeting waits out greeting_hold_ms, then comes as the first turn', async () => {
    const m = await mint({ greeting_hold_ms: 2000 });
    const mic = await connect(m);
    clock.advance(1999);
    await flushed(mic);
    expect(mic.json.filter((x) => x.type === 'turn')).toHaveLength(0);
    clock.advance(1);
    const g = await mic.next((x) => x.type === 'turn');
    expect(g).toMatchObject({ greeting: true, text: '', reply: expect.any(String) });
    expect(g.reply.length).toBeGreaterThan(0);
    mic.close();
  });

  it('the hello is session context: the hold ends at once and the greeting uses its language', async () => {
    const m = await mint({ greeting_hold_ms: 5000 });
    const mic = await connect(m);
    clock.advance(300);
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'fr' }));
    const g = await mic.next((x) => x.type === 'turn');
    expect(g).toMatchObject({ greeting: true, language: 'fr' });
    clock.advance(5000);
    await flushed(mic);
    expect(mic.json.filter((x) => x.type === 'turn')).toHaveLength(1);
    mic.close();
  });

  it('a user turn before the greeting replaces it; greeting_enabled false never greets; hold 0 greets at once', async () => {
    const a = await mint({ greeting_hold_ms: 2000 });
    const micA = await connect(a);
    await fetch(`${a.connect_url}/chat?token=${a.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'hi there' }),
    });
    const t = await micA.next((x) => x.type === 'turn');
    expect(t.text).toBe('hi there');
    clock.advance(3000);
    await flushed(micA);
    expect(micA.json.filter((x) => x.type === 'turn')).toHaveLength(1);

    const b = await mint({ greeting_enabled: false });
    const micB = await connect(b);
    clock.advance(6000);
    await flushed(micB);
    expect(micB.json.filter((x) => x.type === 'turn')).toHaveLength(0);

    const c = await mint({ greeting_hold_ms: 0 });
    const micC = await connect(c);
    expect(await micC.next((x) => x.type === 'turn')).toMatchObject({ greeting: true });
    for (const s of [micA, micB, micC]) s.close();
  });
});

describe('session cap', () => {
  it('at cap_seconds the box ends the media with close code 4001 and a session_cap reason; the session reads ended', async () => {
    const m = await mint({ greeting_enabled: false }, { session_cap_seconds: 60 });
    const mic = await connect(m);
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'active',
    );
    clock.advance(59_900);
    await Promise.all([flushed(mic), flushed(events)]);
    expect(mic.ws.readyState).toBe(mic.ws.OPEN);
    const last = events.json.filter((x) => x.type === 'status').at(-1);
    expect(last.session_ms).toBeGreaterThanOrEqual(59_800);
    clock.advance(100);
    const [c1, c2] = await Promise.all([mic.closed, events.closed]);
    for (const c of [c1, c2]) {
      expect(c.code).toBe(4001);
      expect(c.reason).toMatch(/session_cap/);
    }
    expect(
      (
        await until(
          () => h.api(`/api/v1/sessions/${m.session_id}`),
          (r) => r.body.status === 'ended',
        )
      ).body.status,
    ).toBe('ended');
  });
});
