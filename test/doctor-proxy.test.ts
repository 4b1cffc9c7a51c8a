import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `avatar doctor` against the emulator behind a proxy that plants deviations from the
 * contract: a renamed field, an undocumented status, and a v2 frame of an unknown type (the
 * mint's `connect_url` is rewritten so the edge's traffic goes through the proxy too).
 * Each is reported with its JSON path, exit 7.
 */
const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts)));
  });

/** A JSON response body rewritten by `plant`, or passed through. */
type Plant = (
  method: string,
  path: string,
  status: number,
  body: unknown,
) => { status: number; body: unknown } | undefined;

/** Forward HTTP and WebSocket upgrades to `upstream()`; `frames` may add frames on a socket. */
async function proxy(
  upstream: () => string,
  plant: Plant,
  inject: (
    path: string,
    frame: WebSocket.RawData,
    binary: boolean,
    send: (s: string) => void,
  ) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k))
          headers[k] = v;
      const up = await fetch(upstream() + req.url, {
        method: req.method,
        headers,
        body: body.length ? new Uint8Array(body) : undefined,
      });
      let out = Buffer.from(await up.arrayBuffer());
      let status = up.status;
      const type = up.headers.get('content-type') ?? '';
      if (type.includes('json') && out.length) {
        const changed = plant(
          req.method!,
          new URL(req.url!, 'http://x').pathname,
          status,
          JSON.parse(out.toString()),
        );
        if (changed) {
          status = changed.status;
          out = Buffer.from(JSON.stringify(changed.body));
        }
      }
      res.writeHead(status, { 'content-type': type || 'application/octet-stream' });
      res.end(out);
    })().catch((e: Error) => res.writeHead(502).end(e.message));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, sock, head) => {
    sock.on('error', () => undefined);
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const up = new WebSocket(upstream().replace(/^http/, 'ws') + req.url, protocols);
    const queued: [WebSocket.RawData, boolean][] = [];
    let client: WebSocket | undefined;
    const forward = (d: WebSocket.RawData, binary: boolean) => {
      client!.send(d, { binary });
      inject(new URL(req.url!, 'http://x').pathname, d, binary, (s) => client!.send(s));
    };
    up.on('message', (d, binary) => (client ? forward(d, binary) : queued.push([d, binary])));
    up.on('error', () => sock.destroy());
    up.on('close', () => client?.close());
    up.on('open', () =>
      wss.handleUpgrade(req, sock, head, (ws) => {
        client = ws;
        ws.on('error', () => undefined);
        ws.on('message', (d, binary) => up.send(d, { binary }));
        ws.on('close', () => up.close());
        for (const [d, b] of queued.splice(0)) forward(d, b);
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let control: { server: Server; url: string };
let edge: { server: Server; url: string };
let box = '';

beforeAll(async () => {
  edge = await proxy(
    () => box,
    () => undefined,
    (path, frame, binary, send) => {
      // After the v2 session message, a frame of a type the contract does not have.
      if (path === '/v2/session' && !binary && String(frame).includes('"type":"session"'))
        send(JSON.stringify({ type: 'telemetry_v3', load: 0.5 }));
    },
  );
  control = await proxy(
    () => h.baseUrl,
    (method, path, status, body) => {
      const b = body as Record<string, any>;
      // A renamed field: created_at -> createdAt on the first workspace of the list.
      if (path === '/api/v1/workspaces' && status === 200) {
        const [first, ...rest] = b.data as Record<string, unknown>[];
        const { created_at, ...others } = first!;
        return { status, body: { ...b, data: [{ ...others, createdAt: created_at }, ...rest] } };
      }
      // A wrong status: JWKS answered 202.
      if (path === '/.well-known/jwks.json') return { status: 202, body };
      // The mint's edge goes through the edge proxy.
      if (method === 'POST' && path === '/api/v1/sessions' && status === 201) {
        box = new URL(b.connect_url).origin;
        return { status, body: { ...b, connect_url: edge.url } };
      }
      return undefined;
    },
    () => undefined,
  );
});

afterAll(async () => {
  for (const p of [control, edge]) {
    p?.server.closeAllConnections();
    await new Promise((r) => p?.server.close(r));
  }
});

const env = () =>
  isolatedEnv({ AVATAR_BASE_URL: control.url, AVATAR_API_KEY: h.emu.keys.secretKey });

describe('avatar doctor finds planted deviations', () => {
  it('a renamed field and a wrong status: each row names the JSON path, exit 7', async () => {
    const r = await cli(['doctor'], env());
    expect(r.code).toBe(7);
    // A detail wider than its column wraps under it (80 columns): read each row whole.
    const table = r.stdout.replace(/\n {34}(?=\S)/g, ' ');
    expect(table).toMatch(
      /^workspaces\.list +FAIL {2}\$\.data\[0\]\.created_at: missing \(expected number\)$/m,
    );
    expect(table).toMatch(
      /^jwks\.get +FAIL {2}\$: status 202 is not documented \(documented: 200\)$/m,
    );
    // What the proxy left alone still matches.
    expect(r.stdout).toMatch(/^gallery\.list +ok {4}200, body matches$/m);
    expect(r.stdout).toMatch(/\d+ ok, 2 mismatched, \d+ skipped against /);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .every((l) => l.length <= 80),
    ).toBe(true);
    expect(r.stderr).toBe('');
  });

  it('--json: the mismatches with their paths, and the CLI error envelope on stderr', async () => {
    const r = await cli(['--json', 'doctor'], env());
    expect(r.code).toBe(7);
    const report = r.json();
    expect(report.ok).toBe(false);
    const failed = report.checks.filter((c: { result: string }) => c.result === 'fail');
    expect(failed).toEqual([
      expect.objectContaining({
        check: 'jwks.get',
        status: 202,
        mismatch: { path: '$', message: 'status 202 is not documented (documented: 200)' },
      }),
      expect.objectContaining({
        check: 'workspaces.list',
        status: 200,
        mismatch: { path: '$.data[0].created_at', message: 'missing (expected number)' },
      }),
    ]);
    expect(JSON.parse(r.stderr)).toEqual({
      error: 'cli_error',
      message: '2 checks differ from the contract',
    });
  });

  it('--live: the v2 frame of an unknown type is reported with its frame number and path; v1 and the seats are fine', async () => {
    const r = await cli(['--json', 'doctor', '--live'], env());
    expect(r.code).toBe(7);
    const checks: { check: string; result: string; detail: string }[] = r.json().checks;
    const row = (id: string) => checks.find((c) => c.check === id);
    expect(row('live v2 /v2/session')).toMatchObject({
      result: 'fail',
      detail: expect.stringMatching(
        /^frame 2 \$\.type: unknown message type "telemetry_v3" on \/v2\/session \(expected one of session, /,
      ),
      mismatch: { path: '$.type' },
    });
    expect(row('live v2 turn')).toMatchObject({ result: 'ok' });
    expect(row('live v1 /mse')).toMatchObject({ result: 'ok' });
    expect(row('live v1 release')).toMatchObject({ result: 'ok' });
    expect(row('live v2 release')).toMatchObject({ result: 'ok' });
    const sessions = await (await h.op('/_emulator/sessions')).json();
    expect(sessions.data).toEqual([]);
  });
});
