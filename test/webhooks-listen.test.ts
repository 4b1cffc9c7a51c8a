import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { run } from '../src/cli/main.js';
import { emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * `avatar webhooks listen`: a real receiver that verifies signatures and prints deliveries,
 * fed by the emulator's own webhook dispatcher and by hostile requests; none of them stops it.
 */
const h = useEmulator({ seats: 1, allowInsecureUrls: true });

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

const SECRET = 'listen-secret-0123456789';
const stdout = new Collect();
const stderr = new Collect();
const before = new Set(process.listeners('SIGINT'));
let done: Promise<number> | undefined;
let url = '';

async function listener() {
  if (url) return url;
  const env = emulatorEnv(h);
  done = run(['webhooks', 'listen', '--port', '0', '--secret', SECRET], {
    stdout,
    stderr,
    env,
    cwd: process.cwd(),
  });
  // The ready line itself, however long loading the CLI takes on a busy machine (the 1 s
  // default of vi.waitFor ran out under two forks).
  await vi.waitFor(() => expect(stderr.text).toMatch(/listening on (http:\S+)/), {
    timeout: 20_000,
  });
  url = /listening on (http:\S+)/.exec(stderr.text)![1]!;
  return url;
}
afterAll(async () => {
  for (const l of process.listeners('SIGINT'))
    if (!before.has(l)) (l as (s: string) => void)('SIGINT');
  if (done) expect(await done).toBe(0);
});

const sign = (raw: string) => 'sha256=' + createHmac('sha256', SECRET).update(raw).digest('hex');
const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

describe('avatar webhooks listen', () => {
  it('prints a real queue delivery from the emulator with a valid signature', async () => {
    await listener();
    // The ready note fits 80 columns (it wrapped mid-word on a first try).
    expect(stderr.text.split('\n').filter((l) => l.length > 80)).toEqual([]);
    expect(stderr.text).toContain('--allow-insecure-urls');
    const ep = await h.client.call('webhooks.create', {
      params: { wsId: h.emu.keys.workspaceId },
      body: { url, events: ['queue.*'], secret: SECRET },
    });
    const held = (await h.client.call('sessions.mint', { body: { persona: 'ava' } })).body;
    const q = await h.client.send('sessions.mint', { body: { persona: 'ava' } });
    await h.client.call('sessions.release', { params: { sessionId: held.session_id }, body: {} });
    await vi.waitFor(() => expect(stdout.text).toMatch(/queue\.claimable \[valid\]/), {
      timeout: 20_000,
    });
    expect(stdout.text).toContain(q.body.queue_ticket);
    await h.client.send('sessions.queue.cancel', { params: { ticket: q.body.queue_ticket } });
    await h.client.send('webhooks.delete', {
      params: { wsId: h.emu.keys.workspaceId, webhookId: ep.body.id },
    });
  });

  it('a bad or missing signature is answered 401 and printed as such', async () => {
    await listener();
    const raw = JSON.stringify({
      event: 'queue.dropped',
      workspace_id: null,
      data: { ticket: 't' },
      timestamp: 0,
    });
    expect((await post(raw, { 'x-signature-256': 'sha256=00' })).status).toBe(401);
    expect(stdout.text).toMatch(/queue\.dropped \[INVALID\]/);
    expect((await post(raw)).status).toBe(401);
    expect(stdout.text).toMatch(/queue\.dropped \[MISSING\]/);
    expect((await post(raw, { 'x-signature-256': sign(raw) })).status).toBe(200);
  });

  it('hostile deliveries are answered and printed; the receiver keeps running', async () => {
    await listener();
    const bodies = [
      '{"event":"x","timestamp":"not a time"}',
      '{"event":"x","timestamp":1e300}',
      '{"event":{"a":1},"data":null,"timestamp":-1e20}',
      '[1,2,3]',
      'not json at all',
      '',
      'null',
    ];
    for (const b of bodies)
      expect((await post(b, { 'x-signature-256': sign(b) })).status, b).toBe(200);
    const big = 'x'.repeat(2 * 1024 * 1024);
    expect((await post(big)).status).toBe(413);
    const raw = JSON.stringify({ event: 'queue.position', data: { position: 2 }, timestamp: 1 });
    expect((await post(raw, { 'x-signature-256': sign(raw) })).status).toBe(200);
    expect(stdout.text).toMatch(
      /1970-01-01T00:00:00\.001Z queue\.position \[valid\] \{"position":2\}/,
    );
  });

  it('rejects a port that is not one', async () => {
    const env = emulatorEnv(h);
    const err = new Collect();
    const code = await run(['webhooks', 'listen', '--port', 'abc'], {
      stdout: new Collect(),
      stderr: err,
      env,
      cwd: process.cwd(),
    });
    expect(code).toBe(2);
    expect(err.text).toMatch(/--port must be an integer/);
  });
});
