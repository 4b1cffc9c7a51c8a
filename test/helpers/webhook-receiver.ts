import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  body: {
    event: string;
    workspace_id: string | null;
    data: Record<string, unknown>;
    timestamp: number;
  };
  /** HMAC-SHA256 of the raw body with `secret` matches `x-signature-256`. */
  verify(secret: string): boolean;
}

/**
 * A real local HTTP receiver for webhook tests (STYLE: a real receiver, not a mock), on
 * 127.0.0.1 port 0. `failNext(n, status)` answers the next n deliveries with an error.
 */
export async function startReceiver(): Promise<{
  url: string;
  deliveries: Delivery[];
  failNext(n: number, status?: number): void;
  reset(): void;
  events(name?: string): Delivery[];
  close(): Promise<void>;
}> {
  const deliveries: Delivery[] = [];
  let failing = 0;
  let failStatus = 500;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (failing > 0) {
        failing--;
        res.writeHead(failStatus).end();
        deliveries.push(make(req.url ?? '/', req.headers, raw, true));
        return;
      }
      deliveries.push(make(req.url ?? '/', req.headers, raw, false));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  const failed = new WeakSet<Delivery>();
  const make = (
    path: string,
    headers: Delivery['headers'],
    raw: Buffer,
    wasFailed: boolean,
  ): Delivery => {
    const d: Delivery = {
      path,
      headers,
      raw,
      body: JSON.parse(raw.toString('utf8')),
      verify(secret) {
        const sig = headers['x-signature-256'];
        if (typeof sig !== 'string') return false;
        const want = Buffer.from(
          'sha256=' + createHmac('sha256', secret).update(raw).digest('hex'),
        );
        const got = Buffer.from(sig);
        return want.length === got.length && timingSafeEqual(want, got);
      },
    };
    if (wasFailed) failed.add(d);
    return d;
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    failNext(n, status = 500) {
      failing = n;
      failStatus = status;
    },
    reset() {
      deliveries.length = 0;
      failing = 0;
    },
    events(name) {
      return deliveries.filter((d) => !failed.has(d) && (!name || d.body.event === name));
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
