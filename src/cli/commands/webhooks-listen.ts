/**
 * `avatar webhooks listen`: a local HTTP receiver for webhook deliveries (spec 6.3). It
 * verifies `x-signature-256: sha256=<hex>` (HMAC-SHA256 of the raw body, spec 5.8) when a
 * secret is given, answers 200 (401 on a bad signature), and prints each delivery: one
 * JSON line per delivery with --json, else a short line. Runs until Ctrl-C.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CliContext } from '../context.js';

export function verifySignature(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const want = Buffer.from('sha256=' + createHmac('sha256', secret).update(raw).digest('hex'));
  const got = Buffer.from(header);
  return want.length === got.length && timingSafeEqual(want, got);
}

export async function listenForWebhooks(cli: CliContext, o: { port: number; host: string; secret?: string }): Promise<void> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const sig = req.headers['x-signature-256'];
      const signature = !sig ? 'unsigned' : !o.secret ? 'not checked' : verifySignature(o.secret, raw, String(sig)) ? 'valid' : 'INVALID';
      let body: unknown = raw.toString('utf8');
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        // print as text
      }
      const env = (body && typeof body === 'object' ? body : {}) as { event?: string; data?: unknown; timestamp?: number };
      if (cli.globals().json) cli.io.stdout.write(JSON.stringify({ path: req.url, signature, body }) + '\n');
      else cli.io.stdout.write(`${new Date(env.timestamp ?? Date.now()).toISOString()} ${env.event ?? '(no event)'} [${signature}] ${JSON.stringify(env.data ?? body)}\n`);
      res.writeHead(signature === 'INVALID' ? 401 : 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(o.port, o.host, () => r()));
  const { port } = server.address() as AddressInfo;
  cli.note(`listening on http://${o.host}:${port} (emulator: start it with --allow-insecure-urls for plain-http URLs); Ctrl-C to stop`);
  await new Promise<void>((resolve) => {
    const off = cli.onInterrupt(() => {
      off();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
}
