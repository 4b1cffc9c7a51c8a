/**
 * A loopback HTTP server for media URLs (speak fetches only loopback by default): fixed
 * routes with hit counts, a route that holds its answer until released, and a redirect.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MediaServer {
  url(path: string): string;
  hits(path: string): number;
  /** Resolves when a request for `/hold` has arrived. */
  held(): Promise<void>;
  /** Answer the held request with these bytes. */
  release(bytes: Buffer, type: string): void;
  close(): Promise<void>;
}

export async function startMediaServer(
  routes: Record<string, { bytes: Buffer; type: string; status?: number }>,
): Promise<MediaServer> {
  const counts = new Map<string, number>();
  let arrived: () => void = () => {};
  let heldPromise = new Promise<void>((r) => (arrived = r));
  let pending: ((bytes: Buffer, type: string) => void) | null = null;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (path === '/hold') {
      pending = (bytes, type) => res.writeHead(200, { 'content-type': type }).end(bytes);
      arrived();
      return;
    }
    if (path === '/redirect') return void res.writeHead(302, { location: '/face.png' }).end();
    const r = routes[path];
    if (!r) return void res.writeHead(404).end('not found');
    res
      .writeHead(r.status ?? 200, { 'content-type': r.type, 'content-length': r.bytes.length })
      .end(r.bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits: (path) => counts.get(path) ?? 0,
    held: () => heldPromise,
    release(bytes, type) {
      pending?.(bytes, type);
      pending = null;
      heldPromise = new Promise<void>((r) => (arrived = r));
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
