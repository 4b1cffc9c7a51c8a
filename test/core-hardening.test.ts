import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/** Generic hostile input on the core routes: a 4xx in the spec's envelope, nothing stored changed. */
const h = useEmulator();
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe('request bodies', () => {
  it('a body that is not UTF-8 is 400 invalid_json and changes nothing', async () => {
    const key = h.emu.keys.secretKey;
    const path = `/api/v1/workspaces/${h.emu.keys.workspaceId}`;
    const before = (await json(await h.fetch(path, { key }))).body;
    const latin1 = Buffer.concat([
      Buffer.from('{"name":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const r = await json(await h.fetch(path, { key, method: 'PATCH', body: latin1 }));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_json');
    expect((await json(await h.fetch(path, { key }))).body).toEqual(before);
    // A UTF-8 BOM is not an error.
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify({ name: before.name })),
    ]);
    expect((await h.fetch(path, { key, method: 'PATCH', body: bom })).status).toBe(200);
  });
});

describe('publishable key origins', () => {
  const create = (allowedOrigins: string[]) =>
    h.fetch('/api/v1/tokens', {
      key: h.emu.keys.secretKey,
      method: 'POST',
      body: JSON.stringify({ name: 'web', kind: 'publishable', allowedOrigins }),
    });

  it('are stored as origins: scheme and host lower-cased, default port and trailing slash dropped', async () => {
    const r = await json(
      await create([
        'https://App.Example.COM:443/',
        'http://LOCALHOST:3000',
        'http://localhost:80',
      ]),
    );
    expect(r.status).toBe(201);
    expect(r.body.allowed_origins).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
      'http://localhost',
    ]);
    // The browser sends the serialized origin; the key works from it.
    const status = await h.fetch('/api/v1/sessions/queue/tkt_x', {
      key: r.body.token,
      headers: { origin: 'https://app.example.com' },
    });
    expect(status.status).toBe(200);
    const other = await h.fetch('/api/v1/sessions/queue/tkt_x', {
      key: r.body.token,
      headers: { origin: 'https://app.example.com:8443' },
    });
    expect(other.status).toBe(403);
    expect((await other.json()).error).toBe('origin_not_allowed');
  });

  it('refuse wildcards, paths, queries and credentials (they could never match an Origin)', async () => {
    for (const o of [
      'https://*.example.com',
      'https://app.example.com/app',
      'https://app.example.com?x=1',
      'https://u:p@app.example.com',
    ]) {
      const r = await json(await create([o]));
      expect(r.status, o).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.detail).toMatch(/^allowedOrigins/);
    }
  });
});

/** A raw HTTP exchange, for requests fetch refuses to send. */
function rawExchange(text: string): Promise<string> {
  const { port } = new URL(h.baseUrl);
  return new Promise((resolve, reject) => {
    const s = connect(Number(port), '127.0.0.1', () => s.end(text));
    let out = '';
    s.on('data', (d) => (out += String(d)));
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

describe('a client that goes away mid-body', () => {
  it('is not logged as an internal error, and the server keeps serving', async () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const spy = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: any, ...rest: any[]) => {
        lines.push(String(chunk));
        return write(chunk, ...rest);
      });
    try {
      const { port } = new URL(h.baseUrl);
      await new Promise<void>((resolve) => {
        const s = connect(Number(port), '127.0.0.1', () => {
          s.write(
            `POST /api/v1/tokens HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${h.emu.keys.secretKey}\r\n` +
              'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
          );
          setTimeout(() => s.destroy(), 50);
        });
        s.on('close', () => resolve());
      });
      // The next request is answered after the aborted one has been handled.
      expect((await h.fetch('/api/v1/tokens', { key: h.emu.keys.secretKey })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      spy.mockRestore();
    }
    expect(lines.join('')).not.toMatch(/internal error/);
  });
});

describe('requests Node refuses before routing', () => {
  it('oversized headers get 431 in the envelope', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${h.baseUrl}/api/v1/workspaces`,
        { headers: { 'x-big': 'a'.repeat(70_000) } },
        (r) => {
          let body = '';
          r.on('data', (d) => (body += d));
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'headers_too_large' });
  });

  it('an unparseable request line gets 400 in the envelope, and the server keeps serving', async () => {
    const out = await rawExchange('FOO\u0001 /api/v1/workspaces HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: 'invalid_request',
    });
    expect((await h.fetch('/_emulator/health')).status).toBe(200);
  });
});
