import { describe, expect, it } from 'vitest';
import { cli, emulatorEnv } from './helpers/cli.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 18 item 9: `avatar emulator logs [--session ID] [--json]` shows what the emulator
 * did: requests (with the session they concern), queue moves and session ends.
 */
const h = useEmulator({ seats: 1, pendingIdleS: 60, waiterIdleS: 3600, mintRatePerMinute: 0 });
const env = () => emulatorEnv(h);

describe('operator log', () => {
  it('records a mint, the queue, the idle reaper ending the session and the ticket becoming claimable', async () => {
    const a = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    const q = await h.api('/api/v1/sessions', { body: { persona: 'ava' } });
    expect(q.body.status).toBe('queued');
    await cli(['emulator', 'clock', 'freeze'], env());
    await cli(['emulator', 'clock', 'advance', '61s'], env());
    const r = await cli(['--json', 'emulator', 'logs'], env());
    expect(r.code).toBe(0);
    const entries = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: 'request',
        method: 'POST',
        path: '/api/v1/sessions',
        status: 201,
        session: a.body.session_id,
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ kind: 'request', status: 202, ticket: q.body.queue_ticket }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: 'session.ended',
        session: a.body.session_id,
        reason: 'idle',
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: 'event',
        event: 'queue.claimable',
        data: expect.objectContaining({ ticket: q.body.queue_ticket }),
      }),
    );
    // In order: seq rises, and the reaper's end comes after the mint.
    const seqs = entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    // --session keeps one session's entries; people get one line each.
    const one = await cli(['emulator', 'logs', '--session', a.body.session_id], env());
    const lines = one.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(l).toContain(a.body.session_id);
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3}  POST \/api\/v1\/sessions 201 \d+ms  session /),
    );
    expect(lines.at(-1)).toMatch(new RegExp(`session ${a.body.session_id} ended \\(idle\\)$`));
    await cli(['emulator', 'clock', 'resume'], env());
  });

  it('refuses a bad cursor with 400', async () => {
    expect(
      (await h.fetch('/_emulator/logs?after=soon', { key: h.emu.keys.secretKey })).status,
    ).toBe(400);
  });
});
