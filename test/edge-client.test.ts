import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { connectEdge } from '../src/client/edge-connect.js';
import type { EdgeEvent } from '../src/client/edge-events.js';
import { MicPump, levelDb, type PacerClock } from '../src/client/edge-mic.js';
import { edgeSocketUrl } from '../src/client/edge-url.js';

/**
 * The client side of the v1 data plane (spec 4.6, 6.1) against a scripted edge speaking
 * exactly the spec's frames; the real edge is exercised end to end in sessions-live tests.
 */
let server: Server;
let base = '';
const seen: { path: string; token: string | null; frames: (string | number)[] }[] = [];
const chats: unknown[] = [];
/** `<method or WS> <path> <Origin header>` of every request, for the --origin tests. */
const origins: string[] = [];
let script: (path: string, ws: WebSocket) => void = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    origins.push(`${req.method} ${u.pathname} ${req.headers.origin ?? '(none)'}`);
    if (req.method === 'POST' && u.pathname === '/chat') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (u.searchParams.get('token') !== 'good') {
          res
            .writeHead(401, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: 'unauthorized', detail: 'bad token' }));
          return;
        }
        chats.push(JSON.parse(body));
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, sock, head) => {
    sock.on('error', () => undefined);
    const u = new URL(req.url!, 'http://x');
    origins.push(`WS ${u.pathname} ${req.headers.origin ?? '(none)'}`);
    if (u.searchParams.get('token') !== 'good') {
      sock.end(
        'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"error":"unauthorized","detail":"token expired"}',
      );
      return;
    }
    wss.handleUpgrade(req, sock, head, (ws) => {
      const rec = {
        path: u.pathname,
        token: u.searchParams.get('token'),
        frames: [] as (string | number)[],
      };
      seen.push(rec);
      ws.on('error', () => undefined);
      ws.on('message', (d, bin) => rec.frames.push(bin ? (d as Buffer).length : String(d)));
      script(u.pathname, ws);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const collect = (events: EdgeEvent[]) => (e: EdgeEvent) => events.push(e);

describe('edge URLs (spec 4.6)', () => {
  it('swaps https for wss and http for ws, keeps a path prefix, adds the token', () => {
    expect(edgeSocketUrl('https://edge-7.example.com', '/mse', 'a.b.c')).toBe(
      'wss://edge-7.example.com/mse?token=a.b.c',
    );
    expect(edgeSocketUrl('http://127.0.0.1:9/box/', '/mic_stream', 't')).toBe(
      'ws://127.0.0.1:9/box/mic_stream?token=t',
    );
    expect(() => edgeSocketUrl('ftp://x', '/mse', 't')).toThrow(/not an http/);
  });

  it('docs, examples, benches and our clients derive socket URLs by scheme mapping, in one function', () => {
    // connect_url is http:// on the emulator and https:// in production (docs/fidelity.md):
    // a literal `https` -> `wss` swap leaves an http URL, and a `wss://<host>` recipe breaks
    // on the emulator. edgeSocketUrl (src/contract/edge/url.ts) is the one mapping.
    const roots = ['README.md', 'docs', 'examples', 'bench', 'src'];
    const files = roots.flatMap((r) =>
      statSync(r).isDirectory()
        ? readdirSync(r, { recursive: true, encoding: 'utf8' }).map((f) => join(r, f))
        : [r],
    );
    const swap =
      /replace\(\s*(?:\/\^?https?\/|['"`]https?['"`])\s*,\s*['"`]wss?|s\/https?\/wss?\/|wss?:\/\/<connect_url/;
    const found: string[] = [];
    for (const f of files) {
      if (!/\.(md|ts|js|mjs|html)$/.test(f) || f === join('src', 'contract', 'edge', 'url.ts'))
        continue;
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (swap.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

describe('v1 connection', () => {
  it('says hello on /mic_stream, maps every spec frame to a typed event, and reports the edge ending it', async () => {
    script = (path, ws) => {
      if (path === '/mse') {
        ws.send(JSON.stringify({ mime: 'video/mp4; codecs="avc1.42c015, mp4a.40.2"' }));
        ws.send(Buffer.alloc(700));
        ws.send(Buffer.alloc(300));
      }
      if (path === '/mic_stream') {
        ws.once('message', () => {
          ws.send(JSON.stringify({ type: 'partial', text: 'hello th' }));
          ws.send(
            JSON.stringify({
              type: 'turn',
              text: 'hello there',
              reply: 'Hi!',
              language: 'en',
              speech_id: 's1',
            }),
          );
          ws.send('not json');
        });
      }
      if (path === '/events') {
        ws.send(
          JSON.stringify({ type: 'agent_event', kind: 'calling', tool: 'weather', call_id: 'c1' }),
        );
        ws.send(JSON.stringify({ type: 'status', fps: 24 }));
        setTimeout(() => ws.close(4000, 'session cap reached'), 150);
      }
    };
    const conn = await connectEdge({ connectUrl: base, token: 'good', lang: 'de' });
    const events: EdgeEvent[] = [];
    conn.on(collect(events));
    await conn.ready;
    conn.sendAudio(Buffer.alloc(3200));
    await conn.chat('typed words');
    const closed = await conn.closed;
    expect(closed).toMatchObject({
      reason: 'server',
      code: 4000,
      detail: 'session cap reached',
      socket: '/events',
    });
    const mic = seen.find((s) => s.path === '/mic_stream')!;
    expect(mic.frames[0]).toBe(JSON.stringify({ op: 'hello', lang: 'de' }));
    expect(mic.frames[1]).toBe(3200);
    expect(chats).toEqual([{ text: 'typed words' }]);
    const by = (t: string) => events.filter((e) => e.type === t);
    expect(by('media_init')).toEqual([
      { type: 'media_init', mime: 'video/mp4; codecs="avc1.42c015, mp4a.40.2"' },
    ]);
    expect(by('media').map((e) => (e as { total: number }).total)).toEqual([700, 1000]);
    expect(by('partial')).toEqual([{ type: 'partial', text: 'hello th' }]);
    expect(by('turn')).toEqual([
      { type: 'turn', text: 'hello there', reply: 'Hi!', language: 'en', speech_id: 's1' },
    ]);
    expect(by('agent_event')).toMatchObject([{ kind: 'calling', tool: 'weather', call_id: 'c1' }]);
    expect(by('telemetry')).toEqual([{ type: 'telemetry', frame: { type: 'status', fps: 24 } }]);
    expect(by('error')[0]).toMatchObject({
      socket: '/mic_stream',
      error: expect.stringMatching(/unreadable/),
    });
    expect(by('closed')).toHaveLength(1);
  });

  it('close() from the client ends every socket with reason client', async () => {
    script = () => undefined;
    const conn = await connectEdge({ connectUrl: base, token: 'good' });
    await conn.ready;
    expect(await conn.close()).toMatchObject({ type: 'closed', reason: 'client' });
  });

  it('a refused upgrade rejects ready and closes with reason refused and the HTTP error', async () => {
    const conn = await connectEdge({ connectUrl: base, token: 'stale' });
    await expect(conn.ready).rejects.toThrow(/refused.*401 unauthorized: token expired/);
    expect(await conn.closed).toMatchObject({ reason: 'refused', code: 401 });
  });

  it('a chat refused by the edge throws its error envelope', async () => {
    const conn = await connectEdge({ connectUrl: base, token: 'stale' });
    await conn.ready.catch(() => undefined);
    await expect(conn.chat('hi')).rejects.toThrow(
      'POST /chat answered 401 unauthorized: bad token',
    );
  });

  it('origin: sent as Origin on every upgrade and on POST /chat, over v1 and v2; none when unset', async () => {
    script = () => undefined;
    origins.length = 0;
    const v1 = await connectEdge({
      connectUrl: base,
      token: 'good',
      origin: 'https://app.example.com',
    });
    await v1.ready;
    await v1.chat('hi');
    await v1.close();
    expect([...origins].sort()).toEqual([
      'POST /chat https://app.example.com',
      'WS /events https://app.example.com',
      'WS /mic_stream https://app.example.com',
      'WS /mse https://app.example.com',
    ]);
    origins.length = 0;
    const v2 = await connectEdge({
      connectUrl: base,
      token: 'good',
      protocol: 2,
      origin: 'https://app.example.com',
    });
    await v2.ready;
    await v2.close();
    expect(origins).toEqual(['WS /v2/session https://app.example.com']);
    origins.length = 0;
    const plain = await connectEdge({ connectUrl: base, token: 'good' });
    await plain.ready;
    await plain.chat('hi');
    await plain.close();
    expect(origins.every((o) => o.endsWith(' (none)'))).toBe(true);
  });

  it('a turn with a brain payload carries it (brain-only sessions, docs/edge.md); a malformed one is left out', async () => {
    script = (path, ws) => {
      if (path !== '/mic_stream') return;
      ws.once('message', () => {
        ws.send(
          JSON.stringify({
            type: 'turn',
            text: 'hi',
            reply: 'Hello!',
            speech_id: 's1',
            brain: {
              name: 'local',
              reply: 'Hello!',
              usage: { prompt_tokens: 41, completion_tokens: 2 },
            },
          }),
        );
        ws.send(
          JSON.stringify({
            type: 'turn',
            text: 'again',
            reply: 'Hi.',
            speech_id: 's2',
            brain: 'local',
          }),
        );
      });
    };
    const conn = await connectEdge({ connectUrl: base, token: 'good' });
    const events: EdgeEvent[] = [];
    conn.on(collect(events));
    await conn.ready;
    await vi.waitFor(() => expect(events.filter((e) => e.type === 'turn')).toHaveLength(2));
    await conn.close();
    const [first, second] = events.filter((e) => e.type === 'turn');
    expect(first).toMatchObject({
      speech_id: 's1',
      brain: { name: 'local', reply: 'Hello!', usage: { prompt_tokens: 41, completion_tokens: 2 } },
    });
    expect(second).toMatchObject({ speech_id: 's2' });
    expect(second).not.toHaveProperty('brain');
  });

  it('an edge that is not there closes with reason lost', async () => {
    const conn = await connectEdge({ connectUrl: 'http://127.0.0.1:1', token: 'good' });
    await expect(conn.ready).rejects.toThrow(/lost/);
  });
});

/** A clock the test drives: sleep resolves when `advance` passes its deadline. */
function fakeClock() {
  let t = 0;
  const waiters: { at: number; resolve: () => void }[] = [];
  const clock: PacerClock = {
    now: () => t,
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        waiters.push({ at: t + ms, resolve });
        signal?.addEventListener('abort', () => resolve(), { once: true });
      }),
  };
  return {
    clock,
    async advance(ms: number) {
      const end = t + ms;
      for (;;) {
        await new Promise((r) => setImmediate(r));
        waiters.sort((a, b) => a.at - b.at);
        const w = waiters[0];
        if (!w || w.at > end) break;
        waiters.shift();
        t = w.at;
        w.resolve();
      }
      t = end;
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('mic pump (spec 4.6 cadence)', () => {
  const tone = (ms: number) => {
    const b = Buffer.alloc((ms / 100) * 3200);
    for (let i = 0; i < b.length / 2; i++)
      b.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
    return b;
  };

  it('sends one 3,200-byte frame per 100 ms: the file, then zeroed frames', async () => {
    const fc = fakeClock();
    const frames: Buffer[] = [];
    const pump = new MicPump({ send: (f) => frames.push(Buffer.from(f)), clock: fc.clock });
    pump.feed(tone(250));
    pump.end();
    const ctrl = new AbortController();
    const running = pump.run(ctrl.signal);
    await fc.advance(450); // frames due at 0, 100, 200, 300, 400
    expect(frames.map((f) => f.length)).toEqual([3200, 3200, 3200, 3200, 3200]);
    expect(frames.map((f) => f.some((b) => b !== 0))).toEqual([true, true, true, false, false]);
    expect(pump.drained).toBe(true);
    ctrl.abort();
    await running;
  });

  it('gated frames are zeroed but still sent; the level still reports what the mic heard', () => {
    const frames: Buffer[] = [];
    const levels: number[] = [];
    const pump = new MicPump({
      send: (f) => frames.push(Buffer.from(f)),
      onFrame: (i) => levels.push(i.levelDb),
    });
    pump.feed(tone(200));
    pump.setGated(true);
    pump.tick();
    pump.setGated(false);
    pump.tick();
    expect(frames[0]!.every((b) => b === 0)).toBe(true);
    expect(frames[1]!.some((b) => b !== 0)).toBe(true);
    expect(levels[0]).toBeGreaterThan(-20);
  });

  it('a file said one utterance at a time: held after each utterance (not at a short pause inside one) until released', () => {
    const frames: Buffer[] = [];
    const pump = new MicPump({
      send: (f) => frames.push(Buffer.from(f)),
      pauseAfterUtteranceMs: 500,
    });
    // a question with a 200 ms pause inside it, then 1 s of quiet, then the next question
    pump.feed(
      Buffer.concat([tone(200), Buffer.alloc(6400), tone(200), Buffer.alloc(32_000), tone(200)]),
    );
    pump.end();
    for (let i = 0; i < 6; i++) pump.tick(); // the whole first question, its short pause included
    expect(pump.paused).toBe(false);
    for (let i = 0; i < 20; i++) pump.tick(); // held after it: zeroed frames, the rest kept
    expect(pump.paused).toBe(true);
    expect(pump.pendingMs).toBe(1200);
    pump.hold(false);
    for (let i = 0; i < 12; i++) pump.tick();
    const loud = frames.map((f) => f.some((b) => b !== 0));
    expect(loud.slice(0, 6)).toEqual([true, true, false, false, true, true]);
    expect(loud.slice(6, 26).every((l) => !l)).toBe(true);
    // released: the quiet between the questions, then the next question
    expect(loud.slice(26)).toEqual([...Array(10).fill(false), true, true]);
    // after the last question only quiet is left: held again until released
    expect(pump.paused).toBe(false);
    pump.tick();
    expect(pump.paused).toBe(true);
  });

  it("an utterance's turn is under way from its first loud frame until the edge commits it, partial or not", () => {
    const pump = new MicPump({ send: () => undefined, pauseAfterUtteranceMs: 500 });
    pump.feed(Buffer.concat([Buffer.alloc(3200), tone(200), Buffer.alloc(32_000), tone(200)]));
    pump.end();
    pump.tick(); // quiet lead-in: nothing said yet
    expect(pump.utterancePending).toBe(false);
    pump.tick(); // the question starts
    expect(pump.utterancePending).toBe(true);
    for (let i = 0; i < 10; i++) pump.tick(); // held after it, no turn yet: still under way
    expect(pump.paused).toBe(true);
    expect(pump.utterancePending).toBe(true);
    pump.turnArrived(); // the edge's turn for it
    expect(pump.utterancePending).toBe(false);
    pump.hold(false);
    for (let i = 0; i < 10; i++) pump.tick(); // released: the quiet between the questions
    expect(pump.utterancePending).toBe(false);
    for (let i = 0; i < 3; i++) pump.tick(); // the next question
    expect(pump.utterancePending).toBe(true);
  });

  it('a held source stops at its next quiet frame, never inside an utterance, and keeps its audio', () => {
    const frames: Buffer[] = [];
    const pump = new MicPump({ send: (f) => frames.push(Buffer.from(f)) });
    // an utterance (200 ms), a pause (200 ms), the next utterance (200 ms)
    pump.feed(Buffer.concat([tone(200), Buffer.alloc(6400), tone(200)]));
    pump.end();
    pump.tick();
    pump.hold(true);
    pump.tick(); // the utterance goes on to its end
    expect(pump.paused).toBe(false);
    for (let i = 0; i < 5; i++) pump.tick(); // held in the pause: zeroed frames, nothing taken
    expect(pump.paused).toBe(true);
    expect(pump.pendingMs).toBe(400);
    pump.hold(false);
    for (let i = 0; i < 4; i++) pump.tick();
    expect(frames.map((f) => f.some((b) => b !== 0))).toEqual([
      true,
      true,
      ...Array(5).fill(false),
      false,
      false,
      true,
      true,
    ]);
    expect(pump.drained).toBe(true);
  });

  it('a live source over maxBufferedMs drops its oldest audio', () => {
    const pump = new MicPump({ send: () => undefined, maxBufferedMs: 300 });
    pump.feed(tone(1000));
    expect(pump.pendingMs).toBe(300);
  });

  it('levelDb: full scale is about -3 dBFS for a sine, silence is -Infinity', () => {
    expect(levelDb(Buffer.alloc(3200))).toBe(-Infinity);
    const b = Buffer.alloc(3200);
    for (let i = 0; i < 1600; i++) b.writeInt16LE(Math.round(32767 * Math.sin(i / 3)), i * 2);
    expect(levelDb(b)).toBeCloseTo(-3, 0);
  });
});
