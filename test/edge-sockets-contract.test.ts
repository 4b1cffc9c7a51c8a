import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { openV1, openV2 } from '../src/browser/sockets.js';
import { connectEdge } from '../src/client/edge-connect.js';
import type { EdgeEvent } from '../src/client/edge-events.js';
import { openSock, roundTrip, until, wsUrl, type Sock } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 31 item 3: the edge reads client text with the contract's schemas and answers each
 * documented bad shape with its documented error (docs/edge.md, docs/protocol-v2.md); the
 * Node client and the browser client decode the same frames into the same events.
 */
const NOT_OBJECT = 'text messages are JSON objects';
const BAD_LANG = 'hello.lang is a language tag such as "en" or "de-DE"';
const BAD_CHAT = 'chat.text is a non-empty string of at most 4096 characters';
const invalid = (detail: string) => ({ type: 'error', error: 'invalid_message', detail });

const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });
const mint = async (protocol: 1 | 2) =>
  (
    await h.api('/api/v1/sessions', {
      body: {
        persona: 'ava',
        protocol_versions: [protocol],
        config: { render: false, greeting_enabled: false },
      },
    })
  ).body;
const errorsOf = (s: Sock) => s.json.filter((m) => m.type === 'error');

describe('bad client frames get their documented error; the session goes on', () => {
  it('v2: every bad shape, in order, then a chat is still answered', async () => {
    const m = await mint(2);
    const s = await openSock(wsUrl(m.connect_url, '/v2/session', m.session_token), {
      protocols: ['svc.avatar.v2'],
    });
    const frame = Buffer.concat([Buffer.from([0x02]), Buffer.alloc(3200)]);
    const bad: (string | Buffer)[] = [
      frame, // before hello
      'not json',
      '[1,2]',
      '"hello"',
      JSON.stringify({ type: 'what' }),
      JSON.stringify({ op: 'hello', lang: 'en' }), // v1's hello on v2
      JSON.stringify({ type: 'hello', lang: 7 }),
      JSON.stringify({ type: 'hello', lang: '' }),
      JSON.stringify({ type: 'hello', lang: 'x'.repeat(65) }),
      JSON.stringify({ type: 'chat' }),
      JSON.stringify({ type: 'chat', text: 5 }),
      JSON.stringify({ type: 'chat', text: '' }),
      JSON.stringify({ type: 'chat', text: ' \n\t ' }),
      JSON.stringify({ type: 'chat', text: 'x'.repeat(4097) }),
      Buffer.from([0x07, 1, 2]),
    ];
    for (const f of bad) s.ws.send(f);
    s.ws.send(JSON.stringify({ type: 'hello', lang: 'en' }));
    s.ws.send(Buffer.concat([Buffer.from([0x02]), Buffer.alloc(100)]));
    s.ws.send(JSON.stringify({ type: 'ping' }));
    await s.next((x) => x.type === 'pong');
    expect(errorsOf(s)).toEqual([
      {
        type: 'error',
        error: 'hello_required',
        detail: 'send { "type": "hello", "lang": "en" } before the first audio frame',
      },
      invalid(NOT_OBJECT),
      invalid(NOT_OBJECT),
      invalid(NOT_OBJECT),
      invalid('client messages are hello, chat and ping (docs/protocol-v2.md)'),
      invalid('client messages are hello, chat and ping (docs/protocol-v2.md)'),
      invalid(BAD_LANG),
      invalid(BAD_LANG),
      invalid(BAD_LANG),
      invalid(BAD_CHAT),
      invalid(BAD_CHAT),
      invalid(BAD_CHAT),
      invalid(BAD_CHAT),
      invalid(BAD_CHAT),
      {
        type: 'error',
        error: 'bad_tag',
        detail: 'binary frames from the client start with 0x02 (mic PCM16); got 0x07',
      },
      {
        type: 'error',
        error: 'bad_frame_size',
        detail: 'a mic frame is 1600 samples of 16 kHz mono PCM16 (3200 bytes); got 100 bytes',
      },
    ]);
    // 4096 characters are code points: 4096 emoji (8192 UTF-16 units) are one good turn.
    s.ws.send(JSON.stringify({ type: 'chat', text: '😀'.repeat(4096) }));
    await s.next((x) => x.type === 'chat_ack');
    s.ws.send(JSON.stringify({ type: 'chat', text: 'Tell me about yourself' }));
    await until(
      () => s.json.filter((x) => x.type === 'chat_ack').length,
      (n) => n === 2,
    );
    await s.next((x) => x.type === 'turn' && x.text === 'Tell me about yourself', 30_000);
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    s.close();
    await s.closed;
  }, 60_000);

  it('v1 /mic_stream: every bad shape, in order; the socket and the session go on', async () => {
    const m = await mint(1);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    for (const f of [
      'not json',
      '[1]',
      'null',
      JSON.stringify({ type: 'hello', lang: 'en' }), // v2's hello on v1
      JSON.stringify({ op: 'dance' }),
      JSON.stringify({ op: 'hello', lang: 7 }),
      JSON.stringify({ op: 'hello', lang: 'x'.repeat(65) }),
    ])
      mic.ws.send(f);
    mic.ws.send(JSON.stringify({ op: 'hello', lang: null })); // a good hello: no error
    mic.ws.send(Buffer.alloc(3200));
    await roundTrip(mic);
    const onlyHello = 'the only text message on /mic_stream is { "op": "hello", "lang": "..." }';
    expect(errorsOf(mic)).toEqual([
      invalid(NOT_OBJECT),
      invalid(NOT_OBJECT),
      invalid(NOT_OBJECT),
      invalid(onlyHello),
      invalid(onlyHello),
      invalid(BAD_LANG),
      invalid(BAD_LANG),
    ]);
    expect(mic.ws.readyState).toBe(WebSocket.OPEN);
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    mic.close();
    await mic.closed;
  });
});

/**
 * Frames recorded from the emulator's edge (a brain-only session and a typed turn), plus
 * the shapes a session of another kind or a faulty edge sends (media, a codec string, a
 * cut reply, tool activity, an unknown tag, junk), replayed by a scripted edge to both
 * clients.
 */
type Recorded = (string | Buffer)[];
const media = (...bytes: number[]) => Buffer.from(bytes);
const replayed: Record<string, Recorded> = {};
let scripted: Server;
let scriptedUrl = '';

async function record(sock: Sock, done: (s: Sock) => boolean): Promise<Recorded> {
  await until(
    () => sock,
    (s) => done(s),
    30_000,
  );
  return sock.json.map((j) => JSON.stringify(j));
}

beforeAll(async () => {
  scripted = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => [...p][0] ?? false });
  scripted.on('upgrade', (req, sock, head) => {
    const path = new URL(req.url!, 'http://x').pathname;
    wss.handleUpgrade(req, sock, head, (ws) => {
      ws.on('error', () => undefined);
      for (const f of replayed[path] ?? []) ws.send(f, { binary: typeof f !== 'string' });
      if (path === '/v2/session') ws.close(4002, 'session_ended: replay over');
    });
  });
  await new Promise<void>((r) => scripted.listen(0, '127.0.0.1', r));
  scriptedUrl = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => scripted.close(() => r())));

/** Events as comparable values (a Node Buffer and a page's Uint8Array of the same bytes are one). */
const plain = (e: EdgeEvent) =>
  e.type === 'media' ? { ...e, bytes: Buffer.from(e.bytes).toString('hex') } : e;

async function bothClients(protocol: 1 | 2, until: (es: EdgeEvent[]) => boolean) {
  const opts = { connectUrl: scriptedUrl, token: 't', lang: 'en' };
  const node: EdgeEvent[] = [];
  const page: EdgeEvent[] = [];
  const conn = await connectEdge({ ...opts, protocol });
  conn.on((e) => node.push(e));
  // The browser client on the WHATWG WebSocket API (`ws` implements it: onmessage, arraybuffer).
  vi.stubGlobal('WebSocket', WebSocket);
  try {
    const socks = protocol === 2 ? openV2(opts) : openV1(opts);
    socks.emitter.on((e) => page.push(e));
    await vi.waitFor(() => expect(until(node) && until(page)).toBe(true), {
      timeout: 20_000,
      interval: 20,
    });
    await conn.close();
    socks.close();
    await socks.emitter.closed;
    await Promise.resolve(); // the page client closes its sockets once `closed` settles
  } finally {
    vi.unstubAllGlobals();
  }
  // `status` connecting/connected is each transport's own (not a frame): left out.
  const decoded = (es: EdgeEvent[]) => es.filter((e) => e.type !== 'status').map(plain);
  return { node: decoded(node), page: decoded(page) };
}

describe('the Node and browser clients decode the same frames identically', () => {
  it('v2: recorded frames and hostile ones give the same events, in the same order', async () => {
    const m = await mint(2);
    const s = await openSock(wsUrl(m.connect_url, '/v2/session', m.session_token), {
      protocols: ['svc.avatar.v2'],
    });
    s.ws.send(JSON.stringify({ type: 'hello', lang: 'en' }));
    s.ws.send(JSON.stringify({ type: 'chat', text: 'Tell me about yourself' }));
    s.ws.send(JSON.stringify({ type: 'ping' }));
    const rec = await record(
      s,
      (x) => x.json.some((j) => j.type === 'turn') && x.json.some((j) => j.type === 'status'),
    );
    s.close();
    replayed['/v2/session'] = [
      ...rec,
      JSON.stringify({
        type: 'session',
        protocol: 2,
        session_id: 's',
        mime: 'video/mp4; codecs="avc1.42E01E, mp4a.40.2"',
        render: true,
        cap_seconds: 300,
      }),
      JSON.stringify({ type: 'session', mime: 5 }),
      media(0x01, 0, 0, 0, 8, 0x6d, 0x6f, 0x6f, 0x66),
      media(0x01, 1, 2, 3),
      media(0x09, 1),
      JSON.stringify({ type: 'speech', speech_id: 'sp1', status: 'interrupted', said: 'Hel' }),
      JSON.stringify({ type: 'agent_event', kind: 'image', tool: 'draw', call_id: 'c', url: '/u' }),
      JSON.stringify({ type: 'error', error: 'invalid_message', detail: 'd' }),
      JSON.stringify({ type: 'turn', text: 't', reply: 'r', brain: { name: 'x', usage: {} } }),
      'not json',
      JSON.stringify({ type: 'partial', text: 'end' }),
    ];
    const { node, page } = await bothClients(2, (es) => es.some((e) => e.type === 'closed'));
    expect(page).toEqual(node);
    // What the recorded session said, read: its `session` frame (brain-only), its turn.
    expect(node).toContainEqual({
      type: 'error',
      error: 'render_disabled: this session is brain-only (no media)',
      socket: '/v2/session',
    });
    expect(node).toContainEqual(
      expect.objectContaining({ type: 'turn', text: 'Tell me about yourself' }),
    );
    expect(node.filter((e) => e.type === 'media')).toEqual([
      { type: 'media', bytes: '000000086d6f6f66', total: 8, segments: 1 },
      { type: 'media', bytes: '010203', total: 11, segments: 2 },
    ]);
    expect(node).toContainEqual({
      type: 'error',
      error: 'unknown binary tag 0x9',
      socket: '/v2/session',
    });
    expect(node).toContainEqual(
      expect.objectContaining({
        type: 'error',
        error: expect.stringMatching(/^unreadable session message/),
      }),
    );
    expect(node).toContainEqual({
      type: 'closed',
      reason: 'server',
      code: 4002,
      detail: 'session_ended: replay over',
      socket: '/v2/session',
    });
  }, 60_000);

  it('v1: recorded frames of all three sockets give the same events per socket', async () => {
    const m = await mint(1);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    const chat = await fetch(
      `${m.connect_url.replace(/\/+$/, '')}/chat?token=${encodeURIComponent(m.session_token)}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"Hi"}' },
    );
    expect(chat.status).toBe(200);
    replayed['/mic_stream'] = [
      ...(await record(mic, (x) => x.json.some((j) => j.type === 'turn'))),
      JSON.stringify({ type: 'partial', text: 'end' }),
    ];
    replayed['/events'] = [
      ...(await record(events, (x) => x.json.some((j) => j.type === 'status'))),
      JSON.stringify({ type: 'agent_event', kind: 'calling', tool: 'draw', call_id: 'c' }),
      'junk',
      JSON.stringify({ type: 'speech', speech_id: 'end', status: 'started' }),
    ];
    mic.close();
    events.close();
    replayed['/mse'] = [
      JSON.stringify({ mime: 'video/mp4; codecs="avc1.42E01E"' }),
      media(0, 0, 0, 8, 0x66, 0x74, 0x79, 0x70),
      JSON.stringify({ mime: 'again' }),
      JSON.stringify({ type: 'error', error: 'render_disabled', detail: 'brain-only' }),
      'junk',
      media(1, 2),
    ];
    const done = (es: EdgeEvent[]) =>
      es.some((e) => e.type === 'partial' && e.text === 'end') &&
      es.some((e) => e.type === 'speech' && e.speech_id === 'end') &&
      es.some((e) => e.type === 'media' && e.segments === 2);
    const { node, page } = await bothClients(1, done);
    // The three sockets interleave as they arrive; each one's own events are in order.
    const bySocket = (es: ReturnType<typeof plain>[]) => {
      const of = (e: ReturnType<typeof plain>) =>
        e.type === 'media' || e.type === 'media_init'
          ? '/mse'
          : e.type === 'partial' || e.type === 'turn'
            ? '/mic_stream'
            : e.type === 'error'
              ? (e.socket ?? '?')
              : e.type === 'status' || e.type === 'closed'
                ? 'connection'
                : '/events';
      const out: Record<string, unknown[]> = {};
      for (const e of es) if (of(e) !== 'connection') (out[of(e)] ??= []).push(e);
      return out;
    };
    expect(bySocket(page)).toEqual(bySocket(node));
    expect(bySocket(node)['/mse']).toEqual([
      { type: 'media_init', mime: 'video/mp4; codecs="avc1.42E01E"' },
      { type: 'media', bytes: '0000000866747970', total: 8, segments: 1 },
      { type: 'error', error: 'unexpected /mse message: {"mime":"again"}', socket: '/mse' },
      { type: 'error', error: 'render_disabled: brain-only', socket: '/mse' },
      { type: 'error', error: 'unreadable /mse message: junk', socket: '/mse' },
      { type: 'media', bytes: '0102', total: 10, segments: 2 },
    ]);
    expect(bySocket(node)['/mic_stream']).toContainEqual(
      expect.objectContaining({ type: 'turn', text: 'Hi', brain: expect.any(Object) }),
    );
    expect(bySocket(node)['/events']).toContainEqual(
      expect.objectContaining({
        type: 'telemetry',
        frame: expect.objectContaining({ type: 'status' }),
      }),
    );
  }, 60_000);
});
