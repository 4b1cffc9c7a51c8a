import { describe, expect, it } from 'vitest';
import { defaultParts } from '../src/edge/default-parts.js';
import { LiveSession } from '../src/edge/session/live-session.js';
import { ManualClock } from '../src/emulator/clock.js';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { getSessionRow } from '../src/emulator/sessions/store.js';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { GatedBrain, testSnapshot, turnLoopOn } from './helpers/turn-loop.js';
import { mintSession, useEmulator, type EmulatorHandle, type Minted } from './helpers/emulator.js';
import { decodeAudio, voicedMs } from './helpers/media-audio.js';
import { settle } from './helpers/wait.js';

/** Session 2, edge turns: typed turns that outlive their sockets, typed barge-in, /chat-only sessions, reply language. */

const parts = await defaultParts();

async function chat(m: Minted, text: string): Promise<{ status: number; body: any }> {
  const r = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
    method: 'POST',
    body: JSON.stringify({ text }),
  });
  return { status: r.status, body: await r.json() };
}
const status = async (h: EmulatorHandle, id: string) =>
  (await h.api(`/api/v1/sessions/${id}`)).body.status as string;
const transcript = (h: EmulatorHandle, id: string) => h.api(`/api/v1/sessions/${id}/transcript`);

describe('a typed turn the session ended before answering', () => {
  const brain = new GatedBrain();
  const h = useEmulator({
    boxes: 1,
    seats: 2,
    mintRatePerMinute: 0,
    edgeParts: { ...parts, brain },
  });

  it('/chat turns acknowledged and then cut off by the sockets closing still reach the transcript, with an empty reply', async () => {
    const m = await mintSession(h);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const a = await chat(m, 'Where do you live?');
    expect(a.body).toMatchObject({ ok: true, speech_id: expect.any(String) });
    await until(
      () => brain.asked.length,
      (n) => n >= 1,
    );
    const b = await chat(m, 'And what do you do all day?');
    expect(b.body).toMatchObject({ ok: true });
    mic.close();
    await until(
      () => status(h, m.session_id),
      (s) => s === 'ended',
    );
    const t = await until(
      () => transcript(h, m.session_id),
      (r) => r.body.count >= 2,
    );
    expect(t.body.turns.map((x: any) => [x.user_text, x.reply_text])).toEqual([
      ['Where do you live?', ''],
      ['And what do you do all day?', ''],
    ]);
  });
});

describe('the turn loop when the session ends with turns still queued', () => {
  it('a queued user turn is stored with an empty reply and the outcome `unanswered`', async () => {
    const clock = new ManualClock();
    const snapshot = testSnapshot('sess-unanswered-0001');
    const live = new LiveSession(snapshot, clock, { ended: () => undefined });
    const brain = new GatedBrain();
    const { loop, stored } = turnLoopOn(live, { parts: { ...parts, brain }, clock });
    loop.userTurn('first question');
    await until(
      () => brain.asked.length,
      (n) => n === 1,
    );
    loop.userTurn('second question'); // a spoken turn: waits its turn behind the first
    live.end('closed');
    await until(
      () => stored.length,
      (n) => n >= 2,
    );
    expect(stored.map((t) => [t.user_text, t.reply_text, t.outcome])).toEqual([
      ['first question', '', 'unanswered'],
      ['second question', '', 'unanswered'],
    ]);
    expect(brain.asked).toEqual(['first question']);
  });
});

describe('typed turns with the default parts', () => {
  const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
  const backstory =
    'I grew up in a small fishing village on the northern coast, where every morning started with the sound of boats leaving the harbour and gulls crying over the nets, and I spent my childhood summers learning to sail with my grandfather.';

  /** A session whose avatar has been answering 'Where did you grow up?' on air for 1.5 s. */
  async function speaking() {
    const m = await mintSession(h, { context: { backstory } }, { render: true });
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const a = (await chat(m, 'Where did you grow up?')).body.speech_id as string;
    const turnA = await events.next((x) => x.type === 'turn' && x.speech_id === a, 20_000);
    await events.next(
      (x) => x.type === 'speech' && x.status === 'started' && x.speech_id === a,
      20_000,
    );
    await until(
      async () => voicedMs(await decodeAudio(Buffer.concat(mse.bin))),
      (ms) => ms >= 1500,
      30_000,
    );
    return { m, mse, events, a, turnA };
  }

  it('a /chat turn sent while the avatar speaks cuts the reply on air (stored as said), then is answered', async () => {
    const { m, mse, events, a, turnA } = await speaking();

    const b = (await chat(m, 'What do you do all day?')).body.speech_id as string;
    const cut = await events.next((x) => x.type === 'speech' && x.status === 'interrupted', 20_000);
    expect(cut.speech_id).toBe(a);
    expect(cut.said.length).toBeGreaterThan(0);
    expect(cut.said.length).toBeLessThan(turnA.reply.length);
    const turnB = await events.next((x) => x.type === 'turn' && x.speech_id === b, 20_000);
    expect(turnB.text).toBe('What do you do all day?');

    const t = await until(
      () => transcript(h, m.session_id),
      (r) => r.body.count >= 2 && r.body.turns[0].reply_text === cut.said,
    );
    expect(t.body.turns[0]).toMatchObject({
      user_text: 'Where did you grow up?',
      reply_text: cut.said,
    });
    expect(t.body.turns[1]).toMatchObject({ user_text: 'What do you do all day?' });
    mse.close();
    events.close();
  }, 60_000);

  it('sockets that close while a reply is spoken leave the turn stored whole (only barge-in rewrites a stored reply)', async () => {
    const { m, mse, events, turnA: turn } = await speaking();
    mse.close();
    events.close();
    await until(
      () => status(h, m.session_id),
      (s) => s === 'ended',
    );
    const t = await until(
      () => transcript(h, m.session_id),
      (r) => r.body.count === 1,
    );
    expect(t.body.turns[0].reply_text).toBe(turn.reply);
  }, 60_000);

  it('a typed turn is answered in its own language; the mic hello sets only what the text does not tell', async () => {
    const m = await mintSession(h);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'fr' }));
    const ask = async (text: string) => {
      const id = (await chat(m, text)).body.speech_id;
      return mic.next((x) => x.type === 'turn' && x.speech_id === id);
    };
    // English (the avatar's own `en-US` keeps its region), though the latest hello said French.
    expect((await ask('Where did you grow up?')).language).toMatch(/^en(-|$)/);
    expect((await ask('Où as-tu grandi ?')).language).toBe('fr');
    // Too short to tell: the language the user said they speak (the latest hello).
    expect((await ask('ok')).language).toBe('fr');
    mic.close();

    // response_language is the app's choice for every reply.
    const de = await mintSession(h, { response_language: 'de' });
    const mic2 = await openSock(wsUrl(de.connect_url, '/mic_stream', de.session_token));
    const id = (await chat(de, 'Where did you grow up?')).body.speech_id;
    expect((await mic2.next((x) => x.type === 'turn' && x.speech_id === id)).language).toBe('de');
    mic2.close();
  });
});

describe('a session driven only by /chat (no socket)', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const h = useEmulator({ boxes: 1, seats: 1, mintRatePerMinute: 0, clock });

  it('ends after 60 s without a typed turn: the control plane reads it ended (idle) and the seat is free for the next mint', async () => {
    const a = await mintSession(h);
    expect((await chat(a, 'Where do you live?')).status).toBe(200);
    await until(
      () => status(h, a.session_id),
      (s) => s === 'active',
    );
    await until(
      () => transcript(h, a.session_id),
      (r) => r.body.count === 1,
    );
    clock.advance(50_000);
    await settle();
    expect(await status(h, a.session_id)).toBe('active');
    // A typed turn is activity: the idle time counts from the last one.
    expect((await chat(a, 'What do you do?')).status).toBe(200);
    await until(
      () => transcript(h, a.session_id),
      (r) => r.body.count === 2,
    );
    clock.advance(50_000);
    await settle();
    expect(await status(h, a.session_id)).toBe('active');
    const waiter = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    expect(waiter.status).toBe(202);

    clock.advance(10_000);
    await until(
      () => status(h, a.session_id),
      (s) => s === 'ended',
    );
    expect(getSessionRow(sessionRuntime(h.emu.ctx).st, a.session_id)?.end_reason).toBe('idle');
    // The freed seat goes to the mint that was waiting for it; the transcript kept both turns.
    const ticket = await until(
      () => h.api(`/api/v1/sessions/queue/${waiter.body.queue_ticket}`),
      (r) => r.body.state === 'claimable',
    );
    expect(ticket.body.state).toBe('claimable');
    expect((await transcript(h, a.session_id)).body.count).toBe(2);
  });
});
