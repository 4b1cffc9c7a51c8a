import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator, type Minted } from './helpers/emulator.js';
import { issueBoxCredential, runningBoxes } from '../src/emulator/fleet/spawn.js';
import { BoxFaults } from '../src/edge/box/stream-faults.js';

const h = useEmulator({ boxes: 1, seats: 2, mintRatePerMinute: 0 });
const claims = async () =>
  ((await h.api('/_emulator/logs')).body.data as Record<string, any>[]).filter(
    (e) => e.kind === 'request' && /\/sessions\/[^/]+\/faults$/.test(e.path ?? ''),
  ).length;

/**
 * Arming stream faults on the boxes (docs/testing.md "Faults inside live streams"): a box
 * asks the control plane only at armed events, and what it has armed follows the operator's
 * adds and removes.
 */
describe('a cleared stream fault', () => {
  it('after DELETE /_emulator/faults the box asks nothing at a turn', async () => {
    const add = await h.api('/_emulator/faults', {
      body: { stream: 'brain_fail', session: 'nobody' },
    });
    expect(add.status).toBe(201);
    const del = await h.api('/_emulator/faults', { method: 'DELETE', body: {} });
    expect(del.status).toBe(200);
    expect((await h.api('/_emulator/faults')).body.data).toEqual([]);
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body as Minted;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const before = await claims();
    await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'Where do you live?' }),
    });
    await mic.next((x) => x.type === 'turn');
    await until(
      async () => (await h.api('/_emulator/logs')).body.data.length,
      (n) => n > 0,
    );
    expect(await claims()).toBe(before);
    mic.close();
  }, 60_000);
});

describe('arming the boxes', () => {
  const armedOnEveryBox = () => runningBoxes(h.emu.ctx).map((b) => b.armedFaults);
  const hits = async () =>
    Object.fromEntries(
      ((await h.api('/_emulator/faults')).body.data as { stream: string; hits: number }[]).map(
        (f) => [f.stream, f.hits],
      ),
    );

  it('two faults at different events added back to back: each add answers once the box is armed, and both are dealt', async () => {
    try {
      const a = await h.api('/_emulator/faults', {
        body: { stream: 'delay_turn', ms: 5, count: 1 },
      });
      expect(a.status).toBe(201);
      expect(armedOnEveryBox()).toEqual([['turn']]);
      const b = await h.api('/_emulator/faults', { body: { stream: 'brain_fail', count: 1 } });
      expect(b.status).toBe(201);
      expect(armedOnEveryBox()).toEqual([['reply', 'turn']]);

      const m = (
        await h.api('/api/v1/sessions', {
          body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
        })
      ).body as Minted;
      const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
      const chat = () =>
        fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
          method: 'POST',
          body: JSON.stringify({ text: 'Where do you live?' }),
        });
      // The first reply meets the brain fault; the next turn goes out late.
      await chat();
      expect(await mic.next((x) => x.type === 'error')).toMatchObject({ error: 'turn_failed' });
      await chat();
      await mic.next((x) => x.type === 'turn');
      expect(await until(hits, (x) => x.delay_turn === 1 && x.brain_fail === 1)).toEqual({
        delay_turn: 1,
        brain_fail: 1,
      });
      mic.close();
      // Both retired: the box is disarmed before the clear answers.
      expect((await h.api('/_emulator/faults', { method: 'DELETE', body: {} })).status).toBe(200);
      expect(armedOnEveryBox()).toEqual([[]]);
    } finally {
      await h.api('/_emulator/faults', { method: 'DELETE', body: {} });
    }
  }, 60_000);
});

describe('a box hearing arm messages out of order', () => {
  it('keeps the newer version', () => {
    const f = new BoxFaults({} as never, () => undefined);
    f.arm(['reply', 'turn'], 2);
    f.arm(['turn'], 1);
    expect(f.events()).toEqual(['reply', 'turn']);
    f.arm([], 3);
    expect(f.events()).toEqual([]);
  });
});

describe('a box that does not answer its arm message', () => {
  const e = useEmulator({ boxes: 0, mintRatePerMinute: 0 });
  const arms: { auth: string | undefined; body: { events: string[]; version?: number } }[] = [];
  let hold = true;
  const held: ServerResponse[] = [];
  const box = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      if (req.url === '/_box/faults') {
        arms.push({ auth: req.headers.authorization, body: JSON.parse(text) });
        if (hold) return void held.push(res);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  afterAll(async () => {
    for (const res of held) res.destroy();
    await new Promise((r) => box.close(r));
  });

  it('holds the add up to the call timeout, is logged box.arm_failed, and later arm messages carry a rising version', async () => {
    await new Promise<void>((r) => box.listen(0, '127.0.0.1', r));
    const { port } = box.address() as AddressInfo;
    const { boxId, secret } = issueBoxCredential(e.emu.ctx);
    const reg = await e.fetch(`/_internal/boxes/${boxId}/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        base_url: `http://127.0.0.1:${port}`,
        seats: 1,
        protocols: [1],
        custom_avatars: true,
        verified: true,
        callback_secret: 'c'.repeat(24),
      }),
    });
    expect(reg.status).toBe(200);

    const add = await e.api('/_emulator/faults', { body: { stream: 'brain_fail' } });
    expect(add.status).toBe(201);
    // By the time the add answered, the box was asked and its silence is on the log.
    expect(arms).toEqual([
      {
        auth: `Bearer ${'c'.repeat(24)}`,
        body: { events: ['reply'], version: expect.any(Number) },
      },
    ]);
    const log = (await e.api('/_emulator/logs')).body.data as Record<string, any>[];
    expect(log).toContainEqual(
      expect.objectContaining({
        kind: 'event',
        event: 'box.arm_failed',
        data: expect.objectContaining({ box: boxId, events: ['reply'] }),
      }),
    );

    hold = false;
    expect((await e.api('/_emulator/faults', { method: 'DELETE', body: {} })).status).toBe(200);
    expect(arms).toHaveLength(2);
    expect(arms[1]!.body.events).toEqual([]);
    expect(arms[1]!.body.version).toBeGreaterThan(arms[0]!.body.version!);
  }, 30_000);
});
