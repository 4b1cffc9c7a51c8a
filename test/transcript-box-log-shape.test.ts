/**
 * Spec 4.5 transcript `source`: a box in another process answers its log route, but with a
 * body that is not a log (an older box, a proxy's page, a bug). The control plane must
 * treat that like a log it cannot read (the stored turns, `source: store`), never a 500.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/** The body the box's log route answers (status 200). */
let logBody: unknown = {};
const box: Server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const isLog = /^\/_box\/sessions\/[^/]+\/log$/.test(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(isLog ? logBody : { ok: true }));
  });
});
const boxUrl = await new Promise<string>((r) => box.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(box.address() as AddressInfo).port}`)));
afterAll(() => new Promise<void>((r) => box.close(() => r())));

describe('transcript with a box log that is not a log', () => {
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
    cred = (await h.api('/_emulator/boxes', { method: 'POST' })).body;
    await boxCall('/register', { base_url: boxUrl, seats: 10, protocols: [1], custom_avatars: false, verified: false, callback_secret: 'cb-secret-0123456789abcdef' });
  });

  it.each([
    ['no turns', { session_id: 'x', ended: false }],
    ['turns not a list', { turns: 'hello' }],
    ['turns of the wrong shape', { turns: [{ seq: 'first', text: 'hi' }] }],
  ])('%s: the stored turns, labelled store', async (_what, body) => {
    const m = await h.api('/api/v1/sessions', { body: { persona: 'ava', config: { render: false, greeting_enabled: false } } });
    expect(m.status).toBe(201);
    const id = m.body.session_id as string;
    await boxCall('/seats/events', { session_id: id, event: 'connect' });
    await boxCall(`/sessions/${id}/turns`, { seq: 0, user_text: 'hello', reply_text: 'hi there' });
    logBody = body;
    const t = await h.api(`/api/v1/sessions/${id}/transcript`);
    expect(t.status).toBe(200);
    expect(t.body).toEqual({ session_id: id, source: 'store', turns: [{ seq: 0, user_text: 'hello', reply_text: 'hi there' }], count: 1 });
  });
});
