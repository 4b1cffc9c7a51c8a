import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNRECOGNISED_REPLY } from '../src/edge/session/turn-queue.js';
import { ManualClock } from '../src/emulator/clock.js';
import { cli, emulatorEnv } from './helpers/cli.js';
import { openSock, until, wsUrl, type Sock } from './helpers/edge.js';
import { useEmulator, type Minted } from './helpers/emulator.js';
import { timings } from './helpers/fmp4-timing.js';
import { streamFrames, utteranceFrames } from './helpers/utterance.js';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS } from './helpers/browser.js';

/** In the page: append each part to one SourceBuffer in order; the index of the first that fails. */
async function appendAll({ mime, parts }: { mime: string; parts: string[] }) {
  const video = document.createElement('video');
  document.body.appendChild(video);
  const ms = new MediaSource();
  video.src = URL.createObjectURL(ms);
  await new Promise((r) => ms.addEventListener('sourceopen', r, { once: true }));
  const sb = ms.addSourceBuffer(mime);
  for (let k = 0; k < parts.length; k++) {
    const bytes = Uint8Array.from(atob(parts[k]!), (c) => c.charCodeAt(0));
    try {
      sb.appendBuffer(bytes);
    } catch {
      return { failedAt: k };
    }
    const ok = await new Promise<boolean>((r) => {
      sb.addEventListener('updateend', () => r(true), { once: true });
      sb.addEventListener('error', () => r(false), { once: true });
    });
    if (!ok) return { failedAt: k };
  }
  return { failedAt: null };
}

/**
 * Issue 18 item 6, inside live streams: faults met by real sessions on the emulator's
 * boxes, configured from the seed file, the operator route or the CLI, by event, with a
 * count or a session; each is counted in `GET /_emulator/faults` and logged. Time is the
 * emulator's driven clock; what is asserted is what a client sees.
 */
// The seed's stall (count 1) meets the first media socket this emulator opens: the first test's.
const seedDir = mkdtempSync(join(tmpdir(), 'stream-faults-'));
const seed = join(seedDir, 'seed.yaml');
writeFileSync(
  seed,
  [
    'faults:',
    '  - stream: stall_mse',
    '    after_ms: 1000',
    '    ms: 2000',
    '    count: 1',
    '',
  ].join('\n'),
);
const clock = new ManualClock(Date.UTC(2026, 0, 1));
const h = useEmulator({ boxes: 2, seats: 4, mintRatePerMinute: 0, clock, seed });
const env = () => emulatorEnv(h);

interface FaultView {
  id: string;
  stream?: string;
  hits: number;
  remaining: number | null;
}
const faults = async () => (await h.api('/_emulator/faults')).body.data as FaultView[];
const addFault = async (body: Record<string, unknown>) => {
  const r = await h.api('/_emulator/faults', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as FaultView;
};
const hitOnce = (id: string) =>
  until(
    async () => (await faults()).find((f) => f.id === id)?.hits,
    (n) => n === 1,
  );
const logged = async (id: string) =>
  ((await h.api('/_emulator/logs')).body.data as Record<string, unknown>[]).filter(
    (e) => e.kind === 'fault' && e.fault === id,
  );
const mint = async (config: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const r = await h.api('/api/v1/sessions', {
    body: { persona: 'ava', config: { greeting_enabled: false, ...config }, ...extra },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as Minted;
};
const v2 = (m: Minted) =>
  openSock(wsUrl(m.connect_url, '/v2/session', m.session_token), {
    protocols: ['svc.avatar.v2'],
  });
/** Everything the box sent before now has reached this /mse socket (its answer to a message comes after). */
const roundTrip = async (mse: Sock) => {
  const n = mse.json.length;
  mse.ws.send('x');
  await until(
    () => mse.json.length,
    (k) => k > n,
  );
};
/** Drive the clock in 100 ms steps, letting the box's sends reach the socket after each. */
const drive = async (ms: number, mse: Sock) => {
  for (let t = 0; t < ms; t += 100) {
    clock.advance(100);
    await roundTrip(mse);
  }
};
/** Where the media a socket received ends (ms of its video track). */
const mediaEnd = (s: Sock) => (s.bin.length > 1 ? timings(Buffer.concat(s.bin)).video.endMs : 0);
/** Do the top-level boxes of this message fill it exactly? */
const whole = (b: Buffer) => {
  let at = 0;
  while (at + 8 <= b.length) at += b.readUInt32BE(at);
  return at === b.length;
};
const status = async (id: string) => (await h.api(`/api/v1/sessions/${id}`)).body.status;

describe('faults inside live streams', () => {
  it('stall_mse from the seed file: no media for ms, then what was held, on one continuous timeline', async () => {
    const stall = (await faults()).find((f) => f.stream === 'stall_mse')!;
    expect(stall).toMatchObject({ hits: 0, remaining: 1 });
    const m = await mint({});
    const t0 = clock.now();
    const stalled = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    await hitOnce(stall.id);
    // A second /mse socket of the session meets no fault (count 1): it shows what the box sent.
    const clean = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    // The clock in 100 ms steps; after each, the media (encoded in real time) catches up.
    const driveTo = async (ms: number) => {
      while (clock.now() - t0 < ms) {
        clock.advance(100);
        const at = clock.now() - t0;
        await until(
          () => mediaEnd(clean),
          (end) => end >= at,
        );
        await roundTrip(stalled);
      }
    };
    await driveTo(1000);
    const before = stalled.bin.length;
    const cleanBefore = clean.bin.length;
    await driveTo(2900);
    // The box sent 1.9 s of fragments; the stalled socket got none of them.
    expect(clean.bin.length).toBeGreaterThan(cleanBefore + 5);
    expect(stalled.bin.length).toBe(before);
    await driveTo(3000);
    // Then what was held, and on: the same timeline as the clean socket's, with no hole.
    await until(
      () => mediaEnd(stalled),
      (end) => end === mediaEnd(clean),
    );
    const t = timings(Buffer.concat(stalled.bin));
    expect(t.video.gaps).toEqual([]);
    expect(t.audio.gaps).toEqual([]);
    expect(t.video.endMs).toBeGreaterThanOrEqual(3000);
    expect(await logged(stall.id)).toEqual([
      expect.objectContaining({ stream: 'stall_mse', session: m.session_id, ms: 2000 }),
    ]);
    stalled.close();
    clean.close();
  }, 60_000);

  it('drop_media at run time: the /mse socket drops after_ms in (1006); the session lives and /mse reconnects', async () => {
    const drop = await addFault({ stream: 'drop_media', after_ms: 3000, count: 1 });
    const m = await mint({});
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    let closed: { code: number } | null = null;
    void mse.closed.then((c) => (closed = c));
    await hitOnce(drop.id);
    await drive(2900, mse);
    expect(closed).toBeNull();
    clock.advance(100);
    // No close frame: the client sees an abnormal closure, as on a lost connection.
    expect(await mse.closed).toEqual({ code: 1006, reason: '' });
    expect(await status(m.session_id)).toBe('active');
    const again = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    await until(
      () => again.bin.length,
      (n) => n >= 1,
    );
    expect(again.json[0]).toMatchObject({ mime: expect.stringContaining('video/mp4') });
    expect((await faults()).find((f) => f.id === drop.id)).toMatchObject({ hits: 1, remaining: 0 });
    again.close();
    events.close();
  }, 60_000);

  it('drop_media on a v2 session (its only socket): 1006, and the session ends as on any socket loss', async () => {
    const m = await mint({ render: false }, { protocol_versions: [2] });
    await addFault({ stream: 'drop_media', after_ms: 1000, session: m.session_id });
    const s = await v2(m);
    await s.next((x) => x.type === 'session');
    await until(
      async () => (await logged((await faults()).at(-1)!.id)).length,
      (n) => n === 1,
    );
    clock.advance(1000);
    expect(await s.closed).toEqual({ code: 1006, reason: '' });
    await until(
      () => status(m.session_id),
      (x) => x === 'ended',
    );
    const log = (await h.api(`/_emulator/logs?session=${m.session_id}`)).body.data;
    expect(log).toContainEqual(
      expect.objectContaining({ kind: 'session.ended', reason: 'closed' }),
    );
  }, 60_000);

  it('truncate_fragment: one fragment arrives cut inside its mdat; the next ones are whole', async () => {
    const cut = await addFault({ stream: 'truncate_fragment', after_ms: 500, count: 1 });
    const m = await mint({});
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    await hitOnce(cut.id);
    await drive(2000, mse);
    // The media (encoded in real time) catches up with the clock: fragments past the cut come.
    await until(
      () => mse.bin.length - mse.bin.findIndex((b) => !whole(b)),
      (after) => after > 3 && mse.bin.some((b) => !whole(b)),
    );
    const broken = mse.bin.filter((b) => !whole(b));
    expect(broken).toHaveLength(1);
    const i = mse.bin.indexOf(broken[0]!);
    expect(i).toBeGreaterThan(1);
    expect(broken[0]!.includes(Buffer.from('mdat'))).toBe(true);
    expect(mse.bin.length).toBeGreaterThan(i + 1);
    mse.close();
    // A browser's MSE meets a broken box: the appends fail at or after the cut fragment,
    // while the same stream without it appends cleanly.
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    try {
      const page = await browser.newPage();
      const mime = mse.json.find((x) => x.mime)!.mime as string;
      const append = (parts: Buffer[]) =>
        page.evaluate(appendAll, {
          mime,
          parts: parts.map((b) => b.toString('base64')),
        });
      expect(await append(mse.bin.filter((_, k) => k !== i))).toEqual({ failedAt: null });
      const cutRun = await append(mse.bin);
      expect(cutRun.failedAt).not.toBeNull();
      expect(cutRun.failedAt!).toBeGreaterThanOrEqual(i);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('delay_turn by the CLI: the turn message comes ms late on the driven clock', async () => {
    const add = await cli(
      [
        '--json',
        'emulator',
        'faults',
        'add',
        '--stream',
        'delay_turn',
        '--ms',
        '5000',
        '--count',
        '1',
      ],
      env(),
    );
    expect(add.code, add.stderr).toBe(0);
    const id = add.json().id as string;
    const m = await mint({ render: false }, { protocol_versions: [2] });
    const s = await v2(m);
    s.ws.send(JSON.stringify({ type: 'chat', text: 'Hello there' }));
    await hitOnce(id);
    clock.advance(4900);
    // A ping's pong comes after anything the box sent before it.
    s.ws.send(JSON.stringify({ type: 'ping' }));
    await until(
      () => s.json.filter((x) => x.type === 'pong').length,
      (n) => n >= 1,
    );
    expect(s.json.some((x) => x.type === 'turn')).toBe(false);
    clock.advance(100);
    expect(await s.next((x) => x.type === 'turn')).toMatchObject({ text: 'Hello there' });
    s.close();
  }, 60_000);

  it('brain_fail: the reply fails as turn_failed, the user turn is stored, the next turn is answered', async () => {
    const fail = await addFault({ stream: 'brain_fail', count: 1 });
    const m = await mint({ render: false }, { protocol_versions: [2] });
    const s = await v2(m);
    s.ws.send(JSON.stringify({ type: 'chat', text: 'What is the weather like?' }));
    const err = await s.next((x) => x.type === 'error');
    expect(err).toMatchObject({ error: 'turn_failed' });
    expect(err.detail).toContain(fail.id);
    s.ws.send(JSON.stringify({ type: 'chat', text: 'Hello again' }));
    expect(await s.next((x) => x.type === 'turn')).toMatchObject({ text: 'Hello again' });
    s.close();
    await until(
      () => status(m.session_id),
      (x) => x === 'ended',
    );
    const transcript = (await h.api(`/api/v1/sessions/${m.session_id}/transcript`)).body;
    expect(JSON.stringify(transcript)).toContain('What is the weather like?');
    // `avatar emulator logs` names the fault, what it did and where.
    const logs = await cli(['emulator', 'logs', '--session', m.session_id], env());
    expect(logs.stdout).toMatch(
      new RegExp(`fault ${fail.id} brain_fail at reply  box box_\\w+  session ${m.session_id}`),
    );
  }, 60_000);

  it('recognizer_fail: the utterance makes a turn that says it was not recognised, and the avatar asks again', async () => {
    const fail = await addFault({ stream: 'recognizer_fail', count: 1 });
    const m = await mint({ render: false }, { protocol_versions: [2] });
    const s = await v2(m);
    s.ws.send(JSON.stringify({ type: 'hello', lang: 'en' }));
    await streamFrames(s, await utteranceFrames('Hello, how are you today?'), 0x02);
    const turn = await s.next((x) => x.type === 'turn', 20_000);
    expect(turn.text).toMatch(/^\[speech not recognised: the recogniser failed \(fault /);
    expect(turn.text).toContain(fail.id);
    expect(turn.reply).toBe(UNRECOGNISED_REPLY);
    s.close();
  }, 60_000);

  it('bad stream faults are refused naming the field; probability 0 is never dealt', async () => {
    const bad = async (body: Record<string, unknown>) => {
      const r = await h.api('/_emulator/faults', { body });
      expect(r.status).toBe(400);
      return r.body.detail as string;
    };
    // The detail lists the seven stream kinds, and nothing else (not an HTTP fault's `undefined`).
    const kinds = await bad({ stream: 'melt_box' });
    expect(kinds).toMatch(/^stream: /);
    expect(kinds).not.toMatch(/undefined/);
    for (const k of ['drop_media', 'stall_mse', 'truncate_fragment', 'crash_box', 'delay_turn'])
      expect(kinds).toContain(k);
    expect(kinds).toMatch(/recognizer_fail.*brain_fail|brain_fail.*recognizer_fail/);
    // A stall is at most a minute (what is held goes out at once when it ends).
    expect(await bad({ stream: 'stall_mse', ms: 60_001 })).toMatch(/^ms: .*60000/);
    expect(await bad({ stream: 'stall_mse', ms: 600_000 })).toMatch(/^ms: /);
    expect(await bad({ stream: 'stall_mse', after_ms: 10 })).toMatch(/^ms: give ms for stall_mse/);
    expect(await bad({ stream: 'brain_fail', ms: 10 })).toMatch(/^ms: /);
    expect(await bad({ stream: 'delay_turn', ms: 10, after_ms: 5 })).toMatch(/^after_ms: /);
    expect(await bad({ stream: 'drop_media', route: '/x' })).toMatch(/Unrecognized key: "route"/);
    const both = await cli(
      ['emulator', 'faults', 'add', '--route', '/x', '--stream', 'brain_fail'],
      env(),
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--route .* or --stream/);
    const never = await addFault({ stream: 'brain_fail', probability: 0 });
    const m = await mint({ render: false }, { protocol_versions: [2] });
    const s = await v2(m);
    s.ws.send(JSON.stringify({ type: 'chat', text: 'Hello' }));
    expect(await s.next((x) => x.type === 'turn')).toMatchObject({ text: 'Hello' });
    expect((await faults()).find((f) => f.id === never.id)).toMatchObject({ hits: 0 });
    expect(s.json.some((x) => x.type === 'error')).toBe(false);
    s.close();
    await h.api(`/_emulator/faults/${never.id}`, { method: 'DELETE' });
  }, 60_000);

  it('crash_box for one session: its box drops every socket (1006), its sessions end box_gone, a new box takes its seats', async () => {
    const m = await mint({});
    const crash = await addFault({ stream: 'crash_box', after_ms: 2000, session: m.session_id });
    const events = await openSock(wsUrl(m.connect_url, '/events', m.session_token));
    const mse = await openSock(wsUrl(m.connect_url, '/mse', m.session_token));
    await hitOnce(crash.id);
    // Every other seat taken: the next mint waits in line for a seat to free.
    await h.api('/_emulator/triggers/fill-seats', { body: {} });
    const queued = await h.api('/api/v1/sessions', {
      body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
    });
    expect(queued.status).toBe(202);
    const ticket = queued.body.queue_ticket as string;
    await drive(1900, mse);
    clock.advance(100);
    expect(await mse.closed).toEqual({ code: 1006, reason: '' });
    expect(await events.closed).toEqual({ code: 1006, reason: '' });
    // The control plane finds the box gone by its health probe, a second later.
    clock.advance(1000);
    await until(
      () => status(m.session_id),
      (x) => x === 'ended',
    );
    const log = (await h.api('/_emulator/logs')).body.data as Record<string, any>[];
    expect(log).toContainEqual(
      expect.objectContaining({ kind: 'session.ended', session: m.session_id, reason: 'box_gone' }),
    );
    const crashed = new URL(m.connect_url).origin;
    const boxes = (await h.api('/_emulator/boxes')).body.data as {
      base_url: string;
      live: boolean;
    }[];
    expect(boxes.find((b) => b.base_url === crashed)).toMatchObject({ live: false });
    // As an orchestrator would, a new box takes the crashed one's place: its seats are free,
    // so the ticket in line becomes claimable (queue.claimable, the webhook event).
    await until(
      async () =>
        ((await h.api('/_emulator/boxes')).body.data as { live: boolean }[]).filter((b) => b.live)
          .length,
      (n) => n === 2,
    );
    await until(
      async () =>
        ((await h.api('/_emulator/logs')).body.data as Record<string, any>[]).some(
          (e) => e.event === 'queue.claimable' && e.data?.ticket === ticket,
        ),
      (x) => x,
    );
    await h.api('/_emulator/triggers/free-seats', { body: {} });
  }, 60_000);
});
