import { describe, expect, it } from 'vitest';
import { openSock, until, wsUrl } from './helpers/edge.js';
import { useEmulator, type Minted } from './helpers/emulator.js';

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
