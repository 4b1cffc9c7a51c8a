import { WebSocket } from 'ws';

/** A client socket to a box that records what it receives, for assertions. */
export interface Sock {
  ws: WebSocket;
  /** JSON text messages, in order. */
  json: any[];
  /** Binary messages, in order. */
  bin: Buffer[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the first JSON message (already received or to come) matching `pred`. */
  next(pred: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

export function wsUrl(connectUrl: string, path: string, token?: string): string {
  const u = new URL(path, connectUrl.replace(/^http/, 'ws'));
  if (token) u.searchParams.set('token', token);
  return u.toString();
}

export function openSock(
  url: string,
  opts: { protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<Sock> {
  const ws = new WebSocket(url, opts.protocols ?? [], { headers: opts.headers });
  const json: any[] = [];
  const bin: Buffer[] = [];
  const waiters: { pred: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  ws.on('message', (data, isBinary) => {
    const buf = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
    if (isBinary) return void bin.push(buf);
    const m = JSON.parse(buf.toString('utf8'));
    json.push(m);
    for (const w of [...waiters])
      if (w.pred(m)) waiters.splice(waiters.indexOf(w), 1), w.resolve(m);
  });
  const closed = new Promise<{ code: number; reason: string }>((res) =>
    ws.on('close', (code, reason) => res({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    ws.once('open', () =>
      resolve({
        ws,
        json,
        bin,
        closed,
        close: () => ws.close(),
        next(pred, timeoutMs = 10_000) {
          const have = json.find(pred);
          if (have) return Promise.resolve(have);
          return new Promise((res, rej) => {
            const t = setTimeout(
              () =>
                rej(
                  new Error(
                    `no matching message in ${timeoutMs} ms; got ${JSON.stringify(json).slice(0, 500)}`,
                  ),
                ),
              timeoutMs,
            );
            waiters.push({ pred, resolve: (m) => (clearTimeout(t), res(m)) });
          });
        },
      }),
    );
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`refused ${res.statusCode}`), {
            status: res.statusCode,
            body: body ? JSON.parse(body) : null,
          }),
        ),
      );
    });
    ws.once('error', (e) => reject(e));
  });
}

/** The refusal of an upgrade: its HTTP status and JSON error body. */
export async function refusal(
  url: string,
  opts: { protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  try {
    const s = await openSock(url, opts);
    s.close();
    return { status: 101, body: null };
  } catch (e) {
    return { status: (e as { status: number }).status, body: (e as { body: unknown }).body };
  }
}

/**
 * A round trip on this socket (a WebSocket ping and its pong): the box answers each message
 * as it reads it and a pong after the messages before the ping, so once the pong is here,
 * everything the box sent on this socket before it read the ping has arrived. What a test
 * waits for before it asserts that nothing else came (no real-time pause).
 */
export function roundTrip(s: Sock, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no pong in ${timeoutMs} ms`)), timeoutMs);
    s.ws.once('pong', () => (clearTimeout(t), resolve()));
    s.ws.ping();
  });
}

/** Poll an async condition (for effects that cross the box -> control plane hop). */
export async function until<T>(
  fn: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end)
      throw new Error(
        `condition not met in ${timeoutMs} ms; last value ${JSON.stringify(v)?.slice(0, 300)}`,
      );
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A brain-only `recording: true` persona session with its mic socket open and `hello` said:
 * `api` is the emulator's (useEmulator's `h.api`).
 */
export async function openRecordedMic(
  api: (path: string, init: { body: unknown }) => Promise<{ body: any }>,
): Promise<{ m: any; mic: Sock }> {
  const m = (
    await api('/api/v1/sessions', {
      body: { persona: 'ava', recording: true, config: { render: false, greeting_enabled: false } },
    })
  ).body;
  const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
  mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
  return { m, mic };
}
