import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { isolatedEnv } from './helpers/cli.js';
import { spawnEdge, stopChild } from './helpers/edge-process.js';

/** Issue 8: `avatar edge start` runs a box in a second process that takes sessions. */

/** GET /health on a box with this Host header. */
function statusWithHost(baseUrl: string, host: string): Promise<number> {
  return new Promise((res, rej) => {
    const req = request(`${baseUrl}/health`, { headers: { host } }, (r) => {
      r.resume();
      res(r.statusCode!);
    });
    req.on('error', rej);
    req.end();
  });
}

describe('a box in another process', () => {
  const h = useEmulator({ boxes: 0, mintRatePerMinute: 0 });
  let child: ChildProcess | undefined;
  afterAll(() => stopChild(child));

  it('registers with the control plane, takes a mint, answers /chat with a turn, and its end frees the seat; SIGTERM deregisters it', async () => {
    const edge = spawnEdge(h.baseUrl, h.emu.keys.secretKey, [
      '--seats',
      '2',
      '--protocols',
      '1',
      '--allowed-hosts',
      'box.dev.test',
    ]);
    child = edge.child;
    const line = await edge.ready;
    const ready = JSON.parse(line) as {
      box_id: string;
      base_url: string;
      seats: number;
      protocols: number[];
    };
    expect(ready).toMatchObject({ seats: 2, protocols: [1] });
    // The box serves its --allowed-hosts names besides loopback; any other Host is 421 (docs/security.md).
    expect(await statusWithHost(ready.base_url, 'box.dev.test')).toBe(200);
    expect(await statusWithHost(ready.base_url, 'attacker.example')).toBe(421);
    const boxes = (await h.api('/_emulator/boxes')).body.data as {
      id: string;
      live: boolean;
      seats: number;
    }[];
    expect(boxes).toEqual([
      expect.objectContaining({ id: ready.box_id, live: true, seats: 2, base_url: ready.base_url }),
    ]);

    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body;
    expect(m.connect_url).toBe(ready.base_url);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'What do you do?' }),
    });
    const turn = await mic.next((x) => x.type === 'turn');
    expect(turn.text).toBe('What do you do?');
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    mic.close();
    await until(
      () => h.api(`/api/v1/sessions/${m.session_id}`),
      (r) => r.body.status === 'ended',
    );
    const t = await h.api(`/api/v1/sessions/${m.session_id}/transcript`);
    expect(t.body).toMatchObject({ count: 1, turns: [{ user_text: 'What do you do?' }] });

    await stopChild(child);
    const after = (await h.api('/_emulator/boxes')).body.data as { live: boolean }[];
    expect(after[0]!.live).toBe(false);
  });

  it('recordings of a box in another process (--data DIR) are listed and fetched through the control plane; DELETE erases them on the box; once the box is gone the answer names it', async () => {
    const data = mkdtempSync(join(tmpdir(), 'avatar-box-data-'));
    const edge = spawnEdge(h.baseUrl, h.emu.keys.secretKey, [
      '--seats',
      '2',
      '--protocols',
      '1',
      '--data',
      data,
    ]);
    const box = edge.child;
    child = box;
    const ready = JSON.parse(await edge.ready) as { box_id: string; base_url: string };

    // Two recorded sessions, each with three mic frames: one to erase, one to keep.
    const record = async (fill: number) => {
      const m = (
        await h.api('/api/v1/sessions', {
          body: {
            persona: 'ava',
            recording: true,
            config: { render: false, greeting_enabled: false },
          },
        })
      ).body;
      const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
      mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
      for (let i = 0; i < 3; i++) mic.ws.send(Buffer.alloc(3200, fill));
      await until(
        () => h.api(`/api/v1/sessions/${m.session_id}`),
        (r) => r.body.status === 'active',
      );
      mic.close();
      await until(
        () => h.api(`/api/v1/sessions/${m.session_id}`),
        (r) => r.body.status === 'ended',
      );
      return m.session_id as string;
    };
    const erased = await record(1);
    const kept = await record(2);
    expect(existsSync(join(data, 'captures', kept, 'mic.wav'))).toBe(true);
    // The captures are on the box's disk only, yet the operator route serves them.
    const list = await until(
      () => h.api(`/_emulator/sessions/${kept}/recordings`),
      (r) =>
        r.status === 200 &&
        r.body.data.some((f: any) => f.name === 'mic.wav' && f.bytes === 44 + 3 * 3200),
    );
    expect(list.body.data.map((f: any) => f.name)).toEqual(['mic.wav']);
    const wav = await h.api(`/_emulator/sessions/${kept}/recordings/mic.wav`);
    expect(wav.status).toBe(200);
    expect(wav.type).toBe('audio/wav');
    const b = wav.body as Buffer;
    expect(b.subarray(0, 4).toString()).toBe('RIFF');
    expect(b.length).toBe(44 + 3 * 3200);
    expect(b[44]).toBe(2);
    // The box's captures route is the control plane's only: no callback secret, no captures.
    expect((await fetch(`${ready.base_url}/_box/sessions/${kept}/captures/mic.wav`)).status).toBe(
      401,
    );

    expect((await h.api(`/api/v1/sessions/${erased}`, { method: 'DELETE' })).status).toBe(204);
    await until(
      async () => existsSync(join(data, 'captures', erased)),
      (there) => !there,
    );
    expect((await h.api(`/_emulator/sessions/${erased}/recordings`)).status).toBe(404);

    await stopChild(box);
    const gone = await h.api(`/_emulator/sessions/${kept}/recordings`);
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.body)).toContain(`box ${ready.box_id}`);
    expect(JSON.stringify(gone.body)).toMatch(/gone/);
    rmSync(data, { recursive: true, force: true });
  }, 30_000);

  /** `avatar edge start` that is expected to exit at once. */
  const run = (args: string[], env = isolatedEnv({ AVATAR_API_KEY: h.emu.keys.secretKey })) =>
    new Promise<{ code: number | null; err: string }>((res) => {
      const p = spawn(process.execPath, ['bin/avatar.js', 'edge', 'start', ...args], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      p.stderr.on('data', (c: Buffer) => (err += c.toString()));
      p.once('exit', (code) => res({ code, err }));
    });

  it('a bad --control-plane or --seats is a usage error (exit 2) with one clear line', async () => {
    const a = await run(['--control-plane', 'nope']);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--control-plane/);
    const b = await run(['--control-plane', h.baseUrl, '--seats', '0']);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--seats/);
    const c = await run(['--control-plane', h.baseUrl, '--allowed-hosts', 'http://x:1']);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/--allowed-hosts/);
    const d = await run(['--control-plane', h.baseUrl, '--tts-url', 'localhost:8000']);
    expect(d.code).toBe(2);
    expect(d.err).toContain('--tts-url must be an http(s) URL, got "localhost:8000"');
  });

  it("a box credential is the operator's only (issue 23): with no key the box does not start and says how; a key that is not the operator's is refused", async () => {
    const before = (await h.api('/_emulator/boxes')).body.data.length;
    const none = await run(['--control-plane', h.baseUrl], isolatedEnv());
    expect(none.code).toBe(2);
    expect(none.err.replace(/\s+/g, ' ')).toMatch(
      /issued to the emulator's operator only: pass --api-key \(or set AVATAR_API_KEY\)/,
    );
    const appKey = (await h.api('/api/v1/tokens', { body: { name: 'not the operator' } })).body
      .token as string;
    const wrong = await run(
      ['--control-plane', h.baseUrl],
      isolatedEnv({ AVATAR_API_KEY: appKey }),
    );
    expect(wrong.code).toBe(3);
    expect(wrong.err.replace(/\s+/g, ' ')).toMatch(
      /refused the key as operator credential \(401\)/,
    );
    expect((await h.api('/_emulator/boxes')).body.data.length).toBe(before);
  });
});
