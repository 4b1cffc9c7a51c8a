import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 23: a web page the developer visits cannot reach into the emulator
 * (docs/security.md). Tried as an attacker's page would: DNS rebinding (a foreign Host),
 * operator routes without a credential, cross-origin `text/plain` writes, and the chain that
 * registered a rogue box and handed every mint's connect_url to the attacker.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

/** One HTTP/1.1 request written by hand, so any Host (or none, or a broken one) can be sent. */
function raw(baseUrl: string, lines: string[], body = ''): Promise<RawAnswer> {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname.replace(/^\[|\]$/g, ''));
    let got = '';
    sock.on('data', (d) => (got += d.toString('latin1')));
    sock.on('error', reject);
    sock.on('close', () => {
      const [head, ...rest] = got.split('\r\n\r\n');
      const [status, ...hs] = (head ?? '').split('\r\n');
      const headers: Record<string, string> = {};
      for (const h of hs) {
        const i = h.indexOf(':');
        headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
      }
      const text = rest.join('\r\n\r\n');
      let parsed: any = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(status ?? '')?.[1] ?? 0),
        headers,
        body: parsed,
        text,
      });
    });
    const extra = body ? [`Content-Length: ${Buffer.byteLength(body)}`] : [];
    sock.end([...lines, ...extra, 'Connection: close', '', body].join('\r\n'));
  });
}

const get = (baseUrl: string, path: string, host: string | null, more: string[] = []) =>
  raw(baseUrl, [`GET ${path} HTTP/1.1`, ...(host === null ? [] : [`Host: ${host}`]), ...more]);

const upgrade = (baseUrl: string, path: string, host: string) =>
  raw(baseUrl, [
    `GET ${path} HTTP/1.1`,
    `Host: ${host}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  ]);

const port = (baseUrl: string) => new URL(baseUrl).port;

describe('Host check (DNS rebinding)', () => {
  const h = useEmulator({ boxes: 1, mintRatePerMinute: 0 });
  const box = () => requireBox(h);

  it('the control plane refuses a foreign Host with 421 naming --allowed-hosts, on /api, /_emulator and /.well-known', async () => {
    for (const path of [
      '/api/gallery',
      '/_emulator/health',
      '/.well-known/jwks.json',
      '/api/v1/openapi.json',
    ]) {
      const r = await get(h.baseUrl, path, `attacker.example:${port(h.baseUrl)}`);
      expect(r.status, path).toBe(421);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      expect(r.body.error).toBe('host_not_allowed');
      expect(r.body.message).toContain('--allowed-hosts');
      expect(r.text).not.toContain('ava'); // nothing of the answer leaks
    }
    // An upgrade to the control plane (it has no WebSocket routes) gets the same refusal.
    const up = await upgrade(h.baseUrl, '/api/gallery', 'attacker.example');
    expect(up.status).toBe(421);
    expect(up.body.error).toBe('host_not_allowed');
  });

  it('the control plane serves localhost, 127.0.0.1 and [::1] (any port) and the bound address', async () => {
    for (const host of [
      'localhost',
      `localhost:${port(h.baseUrl)}`,
      '127.0.0.1:1',
      '[::1]:9',
      'LOCALHOST',
      `${new URL(h.baseUrl).host}`,
    ]) {
      expect((await get(h.baseUrl, '/_emulator/health', host)).status, host).toBe(200);
    }
  });

  it('a box refuses a foreign Host on its HTTP routes and on a WebSocket upgrade, before the handshake', async () => {
    const b = await box();
    const health = await get(b, '/health', 'attacker.example');
    expect(health.status).toBe(421);
    expect(health.body.error).toBe('host_not_allowed');
    expect((await get(b, '/health', `127.0.0.1:${port(b)}`)).status).toBe(200);

    for (const path of ['/mse', '/mic_stream', '/events', '/v2/session']) {
      const up = await upgrade(b, path, 'attacker.example');
      expect(up.status, path).toBe(421);
      expect(up.body.error).toBe('host_not_allowed');
    }
    // With an own Host the upgrade reaches the token check (401: no session token here).
    expect((await upgrade(b, '/mse', `localhost:${port(b)}`)).status).toBe(401);
  });

  it('a malformed, empty, missing or very long Host is a clear 400, never a 500 or a hang', async () => {
    for (const host of [
      'bad host',
      'a@b',
      'evil.example:99999',
      'x:y',
      '',
      'h'.repeat(5000),
      '[::1',
      'http://localhost',
    ]) {
      const r = await get(h.baseUrl, '/_emulator/health', host);
      expect(r.status, JSON.stringify(host.slice(0, 40))).toBe(400);
      expect(r.body.error).toBe('invalid_request');
      expect(r.body.message).toMatch(/Host header/);
    }
    const none = await get(h.baseUrl, '/_emulator/health', null);
    expect(none.status).toBe(400);
    // Past Node's header limit (16 KB) the parser refuses it: 431 in the same envelope.
    const huge = await get(h.baseUrl, '/_emulator/health', 'h'.repeat(20_000));
    expect(huge.status).toBe(431);
    expect(huge.body.error).toBe('headers_too_large');
    const b = await box();
    expect((await get(b, '/health', '')).status).toBe(400);
    expect((await upgrade(b, '/mse', 'h'.repeat(5000))).status).toBe(400);
  });
});

describe('--allowed-hosts', () => {
  const h = useEmulator({ boxes: 1, allowedHosts: ['dev.test', '.lan.test'] });

  it('names given are served by the control plane and its boxes; others still are not', async () => {
    expect((await get(h.baseUrl, '/_emulator/health', 'dev.test:8080')).status).toBe(200);
    expect((await get(h.baseUrl, '/_emulator/health', 'a.lan.test')).status).toBe(200);
    expect((await get(h.baseUrl, '/_emulator/health', 'lan.test')).status).toBe(200);
    expect((await get(h.baseUrl, '/_emulator/health', 'xlan.test')).status).toBe(421);
    expect((await get(h.baseUrl, '/_emulator/health', 'other.test')).status).toBe(421);
    const b = await requireBox(h);
    expect((await get(b, '/health', 'dev.test')).status).toBe(200);
    expect((await get(b, '/health', 'other.test')).status).toBe(421);
  });
});

async function requireBox(h: ReturnType<typeof useEmulator>): Promise<string> {
  const r = await h.op('/_emulator/boxes');
  const list = (await r.json()).data as { base_url: string; live: boolean }[];
  return list.find((b) => b.live)!.base_url;
}

describe('startEmulator() checks the security options before it starts', () => {
  it('an --allowed-hosts entry with a scheme or port, and an operator token too short, are refused naming the option', async () => {
    const { startEmulator, EmulatorStartError } = await import('../src/emulator/start.js');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ allowedHosts: ['http://dev.test'] }, /allowedHosts/],
      [{ allowedHosts: ['dev.test:8080'] }, /allowedHosts/],
      [{ operatorToken: 'short' }, /operatorToken/],
    ];
    for (const [opts, name] of cases) {
      const e = await startEmulator({
        port: 0,
        host: '127.0.0.1',
        inMemory: true,
        boxes: 0,
        ...opts,
      }).then(
        async (emu) => (await emu.stop(), null),
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(EmulatorStartError);
      expect((e as Error).message).toMatch(name);
    }
  });
});
