/**
 * `avatar webhooks listen`: a local HTTP receiver for webhook deliveries (spec 6.3). It
 * verifies `x-signature-256: sha256=<hex>` (HMAC-SHA256 of the raw body, spec 5.8) when a
 * secret is given, answers 200 (401 on a bad or missing signature, 413 over 1 MiB), and
 * prints each delivery: one JSON line per delivery with --json, else a short line. Any
 * request, however malformed, is printed and answered; none stops the receiver. Runs until
 * Ctrl-C.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { sameSecret } from '../../server/safe-equal.js';

/** Largest delivery the receiver reads (queue and tool webhooks are a few hundred bytes). */
const MAX_BODY_BYTES = 1024 * 1024;

export function verifySignature(secret: string, raw: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  return sameSecret('sha256=' + createHmac('sha256', secret).update(raw).digest('hex'), header);
}

type Signature = 'valid' | 'INVALID' | 'MISSING' | 'unsigned' | 'not checked';

function signatureOf(
  secret: string | undefined,
  raw: Buffer,
  header: string | string[] | undefined,
): Signature {
  const sig = Array.isArray(header) ? header[0] : header;
  if (!secret) return sig ? 'not checked' : 'unsigned';
  if (!sig) return 'MISSING';
  return verifySignature(secret, raw, sig) ? 'valid' : 'INVALID';
}

/** The envelope's millisecond timestamp as ISO 8601, or null when it is not one. */
function isoTime(ts: unknown): string | null {
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return null;
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function parsePort(s: string): number {
  const n = Number(s);
  if (!/^\d+$/.test(s.trim()) || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw new CliError(`--port must be an integer from 0 to 65535, got ${s}`, ExitCode.usage);
  }
  return n;
}

export async function listenForWebhooks(
  cli: CliContext,
  o: { port: number; host: string; secret?: string },
): Promise<void> {
  const print = (
    path: string | undefined,
    signature: Signature | 'TOO LARGE',
    raw: Buffer | null,
  ) => {
    let body: unknown = raw ? raw.toString('utf8') : null;
    try {
      if (raw) body = JSON.parse(raw.toString('utf8'));
    } catch {
      // print as text
    }
    if (cli.globals().json) {
      cli.io.stdout.write(JSON.stringify({ path, signature, body }) + '\n');
      return;
    }
    const env = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as {
      event?: unknown;
      data?: unknown;
      timestamp?: unknown;
    };
    const when = isoTime(env.timestamp) ?? new Date().toISOString();
    const event = typeof env.event === 'string' ? env.event : '(no event)';
    const shown = JSON.stringify(env.data ?? body) ?? '';
    cli.io.stdout.write(
      `${when} ${event} [${signature}] ${shown.length > 2000 ? shown.slice(0, 2000) + '...' : shown}\n`,
    );
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (tooLarge) {
        print(req.url, 'TOO LARGE', null);
        res
          .writeHead(413, { 'content-type': 'application/json' })
          .end('{"ok":false,"error":"payload_too_large"}');
        return;
      }
      const raw = Buffer.concat(chunks);
      const signature = signatureOf(o.secret, raw, req.headers['x-signature-256']);
      print(req.url, signature, raw);
      const bad = signature === 'INVALID' || signature === 'MISSING';
      res
        .writeHead(bad ? 401 : 200, { 'content-type': 'application/json' })
        .end(bad ? '{"ok":false,"error":"bad_signature"}' : '{"ok":true}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          `cannot listen on ${o.host}:${o.port}: ${err.code ?? err.message}`,
          ExitCode.usage,
        ),
      ),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  cli.note(
    `listening on http://${o.host}:${port} (Ctrl-C stops it)\n(an emulator posts to plain http only with --allow-insecure-urls)`,
  );
  await new Promise<void>((resolve) => {
    const off = cli.onInterrupt(() => {
      off();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  });
}
