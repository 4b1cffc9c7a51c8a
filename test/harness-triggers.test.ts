import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { startReceiver } from './helpers/webhook-receiver.js';
import { waitUntil } from './helpers/wait.js';
import { openSock, refusal, wsUrl } from './helpers/edge.js';
import { png } from './helpers/avatar-media.js';
import { dataUri, spokenWav } from './helpers/generation-media.js';

/**
 * Issue 18 item 5: `avatar trigger NAME` makes the emulator do what would otherwise take a
 * real situation: full seats, a claimable ticket, a drained queue, a webhook, a session
 * ended by its box.
 */
const h = useEmulator({
  seats: 2,
  waiterIdleS: 3600,
  mintRatePerMinute: 0,
  allowInsecureUrls: true,
  idleMedia: false,
  transcribeVoiceRefs: false,
});
const env = () => emulatorEnv(h);
const mint = () => h.api('/api/v1/sessions', { body: { persona: 'ava' } });
/** A webhook receiver subscribed to `events` of the emulator's workspace. */
const subscribed = async (events: string[]) => {
  const rx = await startReceiver();
  const hook = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/webhooks`, {
    body: { url: rx.url, events },
  });
  expect(hook.status).toBe(201);
  return rx;
};
const ticketState = async (t: string) => (await h.api(`/api/v1/sessions/queue/${t}`)).body.state;

describe('avatar trigger', () => {
  it('fill-seats makes the next mint queue; free-seats makes its ticket claimable; drain-queue drops one', async () => {
    const fill = await cli(['--json', 'trigger', 'fill-seats'], env());
    expect(fill.code).toBe(0);
    expect(fill.json()).toEqual({ trigger: 'fill-seats', held: 2 });
    const q = await mint();
    expect(q.status).toBe(202);
    expect((await cli(['trigger', 'free-seats'], env())).code).toBe(0);
    expect((await h.api(`/api/v1/sessions/queue/${q.body.queue_ticket}`)).body.state).toBe(
      'claimable',
    );
    expect((await cli(['trigger', 'drain-queue'], env())).code).toBe(0);
    expect((await h.api(`/api/v1/sessions/queue/${q.body.queue_ticket}`)).body.state).toBe(
      'expired',
    );
  });

  it('webhook sends any emitted event to the workspace endpoints that subscribe', async () => {
    const rx = await subscribed(['queue.*']);
    try {
      const r = await cli(
        ['trigger', 'webhook', 'queue.dropped', '--data', '{"ticket":"q_test","reason":"lapsed"}'],
        env(),
      );
      expect(r.code).toBe(0);
      await waitUntil(() => rx.events('queue.dropped').length > 0);
      expect(rx.events('queue.dropped')[0]!.body).toMatchObject({
        event: 'queue.dropped',
        workspace_id: h.emu.keys.workspaceId,
        data: { ticket: 'q_test', reason: 'lapsed' },
      });
      const bad = await cli(['trigger', 'webhook', 'queue.exploded'], env());
      expect(bad.code).toBe(3);
      expect(bad.stderr).toMatch(/invalid_request:\s+event:\s/);
    } finally {
      await rx.close();
    }
  });

  it('end-session ends a live session as its box would; an unknown one is 404', async () => {
    const s = await mint();
    expect(s.status).toBe(201);
    const r = await cli(
      ['--json', 'trigger', 'end-session', '--session', s.body.session_id],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ session_id: s.body.session_id, reason: 'box_gone' });
    expect((await h.api(`/api/v1/sessions/${s.body.session_id}`)).body.status).toBe('ended');
    expect(
      (await cli(['trigger', 'end-session', '--session', s.body.session_id], env())).code,
    ).toBe(3);
    expect((await cli(['trigger', 'explode'], env())).code).toBe(2);
  });

  it('expire-token: a connect with that session token is refused 401 token_expired; other sessions and open sockets are not touched', async () => {
    const a = await mint();
    const b = await mint();
    expect([a.status, b.status]).toEqual([201, 201]);
    const r = await cli(
      ['--json', 'trigger', 'expire-token', '--session', a.body.session_id],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ trigger: 'expire-token', session_id: a.body.session_id });
    for (const path of ['/mse', '/mic_stream', '/events']) {
      expect(await refusal(wsUrl(a.body.connect_url, path, a.body.session_token))).toMatchObject({
        status: 401,
        body: { error: 'token_expired' },
      });
    }
    const chat = await fetch(`${a.body.connect_url}/chat?token=${a.body.session_token}`, {
      method: 'POST',
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(chat.status).toBe(401);
    expect(await chat.json()).toMatchObject({ error: 'token_expired' });
    // The other session connects; once connected, expiring its token changes nothing for it.
    const ev = await openSock(wsUrl(b.body.connect_url, '/events', b.body.session_token));
    try {
      const again = await cli(['trigger', 'expire-token', '--session', b.body.session_id], env());
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(/already connected/);
    } finally {
      ev.ws.close();
    }
    expect((await cli(['trigger', 'expire-token', '--session', 'nope'], env())).code).toBe(3);
    expect((await cli(['trigger', 'expire-token'], env())).code).toBe(2);
    await h.api(`/api/v1/sessions/${a.body.session_id}/release`, {
      body: { seat_token: a.body.seat_token },
    });
    await waitUntil(
      async () => (await h.api(`/api/v1/sessions/${b.body.session_id}`)).body.status === 'ended',
    );
  });

  it('drop-ticket drops the oldest ticket, or the one named, with the reason given: its holder sees it expired and a queue.dropped webhook', async () => {
    const rx = await subscribed(['queue.dropped']);
    try {
      expect((await cli(['trigger', 'fill-seats'], env())).code).toBe(0);
      const first = await mint();
      const second = await mint();
      const third = await mint();
      expect([first.status, second.status, third.status]).toEqual([202, 202, 202]);
      const oldest = await cli(['--json', 'trigger', 'drop-ticket', '--reason', 'idle'], env());
      expect(oldest.code).toBe(0);
      expect(oldest.json()).toMatchObject({ ticket: first.body.queue_ticket, reason: 'idle' });
      expect(await ticketState(first.body.queue_ticket)).toBe('expired');
      expect(await ticketState(second.body.queue_ticket)).toBe('waiting');
      const named = await cli(
        ['trigger', 'drop-ticket', '--ticket', third.body.queue_ticket, '--reason', 'lapsed'],
        env(),
      );
      expect(named.code).toBe(0);
      expect(await ticketState(third.body.queue_ticket)).toBe('expired');
      expect(await ticketState(second.body.queue_ticket)).toBe('waiting');
      // The default reason is the operator's: drained.
      expect((await cli(['trigger', 'drop-ticket'], env())).code).toBe(0);
      expect(await ticketState(second.body.queue_ticket)).toBe('expired');
      await waitUntil(() => rx.events('queue.dropped').length === 3);
      expect(rx.events('queue.dropped').map((e) => e.body.data)).toEqual([
        expect.objectContaining({ ticket: first.body.queue_ticket, reason: 'idle' }),
        expect.objectContaining({ ticket: third.body.queue_ticket, reason: 'lapsed' }),
        expect.objectContaining({ ticket: second.body.queue_ticket, reason: 'drained' }),
      ]);
      // Nothing left to drop, an unknown ticket, a reason the queue does not have.
      expect((await cli(['trigger', 'drop-ticket'], env())).code).toBe(3);
      expect((await cli(['trigger', 'drop-ticket', '--ticket', 'q_nope'], env())).code).toBe(3);
      const bad = await cli(['trigger', 'drop-ticket', '--reason', 'bored'], env());
      expect(bad.code).toBe(3);
      expect(bad.stderr).toMatch(/reason/);
    } finally {
      await cli(['trigger', 'free-seats'], env());
      await rx.close();
    }
  });

  it('a 404 the emulator answers says why; the "is this an emulator?" hint only when the route itself is unknown', async () => {
    const empty = await cli(['trigger', 'drop-ticket'], env());
    expect(empty.code).toBe(3);
    expect(empty.stderr).toMatch(/the queue is\s+empty/);
    expect(empty.stderr).not.toMatch(/is this an\s+emulator/);
    const elsewhere = await cli(
      ['trigger', 'drop-ticket'],
      isolatedEnv({
        AVATAR_BASE_URL: `${h.baseUrl}/not-here`,
        AVATAR_API_KEY: h.emu.keys.secretKey,
      }),
    );
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toMatch(/no route[^]*is this an\s+emulator\?/);
  });

  it('fail-speak: the next /speak (or design) answers 502 render_failed as a failed render does; the one after succeeds', async () => {
    const ref = await spokenWav('This is the voice I would like you to use.', { voice: 'slt' });
    const speak = () =>
      h.api('/api/v1/speak', {
        body: {
          text: 'Hello there.',
          image: dataUri('image/png', png()),
          voice_ref: dataUri('audio/wav', ref),
        },
      });
    const design = () =>
      h.api('/api/v1/design', { body: { description: 'a calm voice', text: 'Hello.' } });
    const r = await cli(['--json', 'trigger', 'fail-speak'], env());
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ trigger: 'fail-speak', stage: 'tts', count: 1 });
    expect(await speak()).toMatchObject({
      status: 502,
      body: { error: 'render_failed', retryable: true },
    });
    expect((await cli(['trigger', 'fail-speak', '--count', '2'], env())).code).toBe(0);
    expect((await design()).status).toBe(502);
    expect((await design()).status).toBe(502);
    expect((await design()).status).toBe(200);
    expect((await cli(['trigger', 'fail-speak', '--stage', 'video'], env())).code).toBe(0);
    expect((await speak()).status).toBe(502);
    expect((await speak()).status).toBe(200);
    expect((await cli(['trigger', 'fail-speak', '--stage', 'brain'], env())).code).toBe(3);
  }, 60_000);
});
