import { describe, expect, it } from 'vitest';
import { cli, isolatedEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';
import { startReceiver } from './helpers/webhook-receiver.js';
import { waitUntil } from './helpers/wait.js';

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
});
const env = () => isolatedEnv({ AVATAR_BASE_URL: h.baseUrl, AVATAR_API_KEY: h.emu.keys.secretKey });
const mint = () => h.api('/api/v1/sessions', { body: { persona: 'ava' } });

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
    const rx = await startReceiver();
    try {
      const hook = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}/webhooks`, {
        body: { url: rx.url, events: ['queue.*'] },
      });
      expect(hook.status).toBe(201);
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
});
