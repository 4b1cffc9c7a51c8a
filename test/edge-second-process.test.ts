import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';
import { isolatedEnv } from './helpers/cli.js';

/** Issue 8: `avatar edge start` runs a box in a second process that takes sessions. */

describe('a box in another process', () => {
  const h = useEmulator({ boxes: 0, mintRatePerMinute: 0 });
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child!.once('exit', r));
    }
  });

  it('registers with the control plane, takes a mint, answers /chat with a turn, and its end frees the seat; SIGTERM deregisters it', async () => {
    child = spawn(process.execPath, ['bin/avatar.js', 'edge', 'start', '--control-plane', h.baseUrl, '--seats', '2', '--protocols', '1', '--json'], {
      env: isolatedEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const line = await new Promise<string>((res, rej) => {
      createInterface({ input: child!.stdout! }).once('line', res);
      child!.once('exit', (code) => rej(new Error(`edge start exited ${code}: ${stderr}`)));
    });
    const ready = JSON.parse(line) as { box_id: string; base_url: string; seats: number; protocols: number[] };
    expect(ready).toMatchObject({ seats: 2, protocols: [1] });
    const boxes = (await h.api('/_emulator/boxes')).body.data as { id: string; live: boolean; seats: number }[];
    expect(boxes).toEqual([expect.objectContaining({ id: ready.box_id, live: true, seats: 2, base_url: ready.base_url })]);

    const m = (await h.api('/api/v1/sessions', { body: { persona: 'ava', config: { render: false, greeting_enabled: false } } })).body;
    expect(m.connect_url).toBe(ready.base_url);
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    mic.ws.send(JSON.stringify({ op: 'hello', lang: 'en' }));
    await fetch(`${m.connect_url}/chat?token=${m.session_token}`, { method: 'POST', body: JSON.stringify({ text: 'What do you do?' }) });
    const turn = await mic.next((x) => x.type === 'turn');
    expect(turn.text).toBe('What do you do?');
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    mic.close();
    await until(() => h.api(`/api/v1/sessions/${m.session_id}`), (r) => r.body.status === 'ended');
    const t = await h.api(`/api/v1/sessions/${m.session_id}/transcript`);
    expect(t.body).toMatchObject({ count: 1, turns: [{ user_text: 'What do you do?' }] });

    child.kill('SIGTERM');
    await new Promise((r) => child!.once('exit', r));
    const after = (await h.api('/_emulator/boxes')).body.data as { live: boolean }[];
    expect(after[0]!.live).toBe(false);
  });

  it('a bad --control-plane or --seats is a usage error (exit 2) with one clear line', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((res) => {
        const p = spawn(process.execPath, ['bin/avatar.js', 'edge', 'start', ...args], { env: isolatedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        p.stderr.on('data', (c: Buffer) => (err += c.toString()));
        p.once('exit', (code) => res({ code, err }));
      });
    const a = await run(['--control-plane', 'nope']);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--control-plane/);
    const b = await run(['--control-plane', h.baseUrl, '--seats', '0']);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--seats/);
  });
});
