import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../src/emulator/start.js';

/** startEmulator() / stop(): the programmatic lifecycle (the CLI's is in emulator-start.test.ts). */
const tmp = () => mkdtempSync(join(tmpdir(), 'avatar-lifecycle-'));
const opts = { port: 0, host: '127.0.0.1', boxes: 0 } as const;

describe('stop()', () => {
  it('called twice resolves both calls once the emulator is really down', async () => {
    const emu = await startEmulator({ ...opts, inMemory: true });
    let firstDone = false;
    const first = emu.stop().then(() => (firstDone = true));
    await emu.stop();
    expect(firstDone).toBe(true);
    await first;
    await expect(fetch(`${emu.baseUrl}/_emulator/health`)).rejects.toThrow();
  });

  it('lets requests already in flight finish with their answers', async () => {
    const emu = await startEmulator({ ...opts, inMemory: true });
    const key = emu.keys.secretKey;
    const { request } = await import('node:http');
    // Each request sends its headers with `Expect: 100-continue`; the 100 proves the server
    // has the request in hand. stop() is called then, and only then do the bodies follow.
    const requests = Array.from({ length: 5 }, (_, i) => {
      const req = request(`${emu.baseUrl}/api/v1/tokens`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          expect: '100-continue',
        },
      });
      const continued = new Promise<void>((r) => req.once('continue', () => r()));
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
      });
      req.flushHeaders();
      return { req, continued, answer, body: JSON.stringify({ name: `in-flight-${i}` }) };
    });
    await Promise.all(requests.map((r) => r.continued));
    const stopped = emu.stop();
    for (const r of requests) r.req.end(r.body);
    const answers = await Promise.all(requests.map((r) => r.answer));
    await stopped;
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(JSON.parse(a.body).name).toMatch(/^in-flight-/);
    }
    await expect(fetch(`${emu.baseUrl}/_emulator/health`)).rejects.toThrow();
  });
});

describe('start failures', () => {
  it('a busy port rejects with EADDRINUSE and leaves the data dir usable', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const dir = tmp();
    try {
      await expect(startEmulator({ ...opts, port, dataDir: dir })).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    const emu = await startEmulator({ ...opts, dataDir: dir });
    expect((await fetch(`${emu.baseUrl}/_emulator/health`)).status).toBe(200);
    await emu.stop();
  });

  it('a data dir that cannot be used rejects with a message naming it', async () => {
    const file = join(tmp(), 'not-a-dir');
    writeFileSync(file, 'x');
    await expect(startEmulator({ ...opts, dataDir: file })).rejects.toThrow(/data dir .*not-a-dir/);
  });

  it('a port outside 0..65535 rejects with a clear message', async () => {
    await expect(startEmulator({ ...opts, inMemory: true, port: 70_000 })).rejects.toThrow(/port/);
  });
});

describe('one emulator per data dir', () => {
  it('a second start on a data dir in use is refused, and the first keeps its sessions', async () => {
    const dir = tmp();
    const a = await startEmulator({ ...opts, boxes: 1, dataDir: dir });
    try {
      const key = a.keys.secretKey;
      const mint = await fetch(`${a.baseUrl}/api/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: JSON.stringify({ persona: 'ava' }),
      });
      expect(mint.status).toBe(201);
      const { session_id } = (await mint.json()) as { session_id: string };

      await expect(startEmulator({ ...opts, dataDir: dir })).rejects.toThrow(/in use/);

      const s = await fetch(`${a.baseUrl}/api/v1/sessions/${session_id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(((await s.json()) as { status: string }).status).toBe('pending');
    } finally {
      await a.stop();
    }
    // Once stopped, the data dir is free again, with the same keys.
    const b = await startEmulator({ ...opts, dataDir: dir });
    expect(b.keys.secretKey).toBe(a.keys.secretKey);
    await b.stop();
  });
});

describe('bootstrap keys across restarts', () => {
  it('are reused while they work; a bootstrap key revoked through the API is replaced on the next start', async () => {
    const dir = tmp();
    const a = await startEmulator({ ...opts, dataDir: dir });
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    const tokens = (await (
      await fetch(`${a.baseUrl}/api/v1/tokens`, { headers: auth(a.keys.dashboardKey) })
    ).json()) as {
      data: { id: string; token_prefix: string; workspace_id: string | null }[];
    };
    const bound = tokens.data.find(
      (t) =>
        t.workspace_id === a.keys.workspaceId && t.token_prefix === a.keys.secretKey.slice(0, 8),
    )!;
    const rev = await fetch(`${a.baseUrl}/api/v1/tokens/${bound.id}/revoke`, {
      method: 'POST',
      headers: auth(a.keys.dashboardKey),
    });
    expect(rev.status).toBe(200);
    await a.stop();

    const b = await startEmulator({ ...opts, dataDir: dir });
    try {
      expect(b.keys.dashboardKey).toBe(a.keys.dashboardKey);
      expect(b.keys.workspaceId).toBe(a.keys.workspaceId);
      expect(b.keys.secretKey).not.toBe(a.keys.secretKey);
      const list = await fetch(`${b.baseUrl}/api/v1/workspaces`, {
        headers: auth(b.keys.secretKey),
      });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: { id: string }[] }).data.map((w) => w.id)).toEqual([
        a.keys.workspaceId,
      ]);
      expect(
        (await fetch(`${b.baseUrl}/api/v1/workspaces`, { headers: auth(a.keys.secretKey) })).status,
      ).toBe(401);
    } finally {
      await b.stop();
    }
    // And the replacement is itself reused on the next start.
    const c = await startEmulator({ ...opts, dataDir: dir });
    expect(c.keys.secretKey).toBe(b.keys.secretKey);
    await c.stop();
  });
});
