/**
 * Spec 4.5: the transcript's `source` says where its turns came from: `live` when they were
 * rebuilt from the box's own log, `store` when the transcript store answered. The box here
 * is a small HTTP server registered over the internal box API (as a box in another process
 * would be), so the test decides whether its log route answers. Turns reach the store the
 * way a box reports them (`POST /_internal/boxes/{id}/sessions/{sid}/turns`).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

type Turn = { seq: number; user_text: string; reply_text: string };

/** What the box's log route answers: its turns, a failure status, or (200) a body that is not a log. */
let boxLog: { status: 200; turns: Turn[] } | { status: number } | { status: 200; raw: unknown } = {
  status: 200,
  turns: [],
};
const logAsks: string[] = [];
const box: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const m = /^\/_box\/sessions\/([^/]+)\/log$/.exec(req.url ?? '');
    if (m) logAsks.push(decodeURIComponent(m[1]!));
    const body =
      m && 'raw' in boxLog
        ? boxLog.raw
        : m && boxLog.status === 200
          ? { session_id: m[1], ended: false, turns: (boxLog as { turns: Turn[] }).turns }
          : { error: 'unavailable', message: 'log store busy' };
    res.writeHead(m ? boxLog.status : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(m ? body : { ok: true }));
  });
});
const boxUrl = await new Promise<string>((r) =>
  box.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(box.address() as AddressInfo).port}`)),
);
afterAll(() => new Promise<void>((r) => box.close(() => r())));

const turn = (seq: number, user: string): Turn => ({
  seq,
  user_text: user,
  reply_text: `reply to ${user}`,
});

describe('transcript source (spec 4.5)', () => {
  const h = useEmulator({ boxes: 0, mintRatePerMinute: 0 });
  let cred: { box_id: string; secret: string };
  const boxCall = async (path: string, body: unknown) => {
    const r = await fetch(`${h.baseUrl}/_internal/boxes/${cred.box_id}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cred.secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(200);
  };

  beforeAll(async () => {
    cred = (await h.api('/_emulator/boxes', { body: {} })).body;
    await boxCall('/register', {
      base_url: boxUrl,
      seats: 10,
      protocols: [1],
      custom_avatars: false,
      verified: false,
      callback_secret: 'cb-secret-0123456789abcdef',
    });
  });

  /** A connected session on the box whose store holds `stored`. */
  const liveSession = async (stored: Turn[]): Promise<string> => {
    const m = await h.api('/api/v1/sessions', {
      body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
    });
    expect(m.status).toBe(201);
    const id = m.body.session_id as string;
    await boxCall('/seats/events', { session_id: id, event: 'connect' });
    for (const t of stored) await boxCall(`/sessions/${id}/turns`, t);
    expect((await h.api(`/api/v1/sessions/${id}`)).body.status).toBe('active');
    return id;
  };
  const transcript = async (id: string) => (await h.api(`/api/v1/sessions/${id}/transcript`)).body;

  it('box log readable and ahead of the store: source live with the log turns', async () => {
    const id = await liveSession([turn(0, 'hello')]);
    boxLog = { status: 200, turns: [turn(0, 'hello'), turn(1, 'where do you live?')] };
    const t = await transcript(id);
    expect(logAsks).toContain(id);
    expect(t).toEqual({
      session_id: id,
      source: 'live',
      turns: [turn(0, 'hello'), turn(1, 'where do you live?')],
      count: 2,
    });
  });

  it('box log unreadable (the box answers 503): the stored turns, labelled store', async () => {
    const id = await liveSession([turn(0, 'hello'), turn(1, 'thanks')]);
    boxLog = { status: 503 };
    const t = await transcript(id);
    expect(logAsks).toContain(id);
    expect(t).toEqual({
      session_id: id,
      source: 'store',
      turns: [turn(0, 'hello'), turn(1, 'thanks')],
      count: 2,
    });
  });

  it('box log readable but behind the store: the stored turns, labelled store', async () => {
    const id = await liveSession([turn(0, 'hello')]);
    boxLog = { status: 200, turns: [] };
    const t = await transcript(id);
    expect(t).toEqual({ session_id: id, source: 'store', turns: [turn(0, 'hello')], count: 1 });
  });

  it('after the end: a store that missed the turns gives way to the box log (live); a complete store answers (store)', async () => {
    const missed = await liveSession([]);
    const complete = await liveSession([turn(0, 'hello')]);
    for (const id of [missed, complete])
      await boxCall('/seats/events', { session_id: id, event: 'close', reason: 'closed' });
    boxLog = { status: 200, turns: [turn(0, 'hello')] };
    expect(await transcript(missed)).toEqual({
      session_id: missed,
      source: 'live',
      turns: [turn(0, 'hello')],
      count: 1,
    });
    expect(await transcript(complete)).toEqual({
      session_id: complete,
      source: 'store',
      turns: [turn(0, 'hello')],
      count: 1,
    });
    boxLog = { status: 503 };
    expect(await transcript(missed)).toEqual({
      session_id: missed,
      source: 'store',
      turns: [],
      count: 0,
    });
  });

  // A box that answers its log route with a body that is not a log (an older box, a proxy's
  // page, a bug): treated like a log it cannot read, never a 500.
  it.each([
    ['no turns', { session_id: 'x', ended: false }],
    ['turns not a list', { turns: 'hello' }],
    ['turns of the wrong shape', { turns: [{ seq: 'first', text: 'hi' }] }],
  ])('box log answers 200 with %s: the stored turns, labelled store', async (_what, raw) => {
    const id = await liveSession([turn(0, 'hello')]);
    boxLog = { status: 200, raw };
    const t = await h.api(`/api/v1/sessions/${id}/transcript`);
    expect(t.status).toBe(200);
    expect(t.body).toEqual({
      session_id: id,
      source: 'store',
      turns: [turn(0, 'hello')],
      count: 1,
    });
  });
});
