import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnEdge, stopChild } from './helpers/edge-process.js';
import { openSock, wsUrl } from './helpers/edge.js';
import { useEmulator } from './helpers/emulator.js';

/**
 * Issue 18 item 6: stream faults reach a box through the internal box API only, so a box
 * in another process (`avatar edge start`) meets a fault added at run time after it
 * registered, and the control plane counts and logs it.
 */
describe('a stream fault on a box in another process', () => {
  const h = useEmulator({ boxes: 0, mintRatePerMinute: 0 });
  let child: ChildProcess | undefined;
  afterAll(() => stopChild(child));

  it('brain_fail added after the box registered: the typed turn fails as turn_failed, counted once', async () => {
    const edge = spawnEdge(h.baseUrl, h.emu.keys.secretKey, ['--seats', '1']);
    child = edge.child;
    await edge.ready;
    const add = await h.api('/_emulator/faults', { body: { stream: 'brain_fail', count: 1 } });
    expect(add.status).toBe(201);
    const m = (
      await h.api('/api/v1/sessions', {
        body: { persona: 'ava', config: { render: false, greeting_enabled: false } },
      })
    ).body;
    const mic = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token));
    const chat = await fetch(new URL(`/chat?token=${m.session_token}`, m.connect_url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Where do you live?' }),
    });
    expect(chat.status).toBe(200);
    const err = await mic.next((x) => x.type === 'error', 20_000);
    expect(err).toMatchObject({ error: 'turn_failed' });
    expect(err.detail).toContain(add.body.id);
    const listed = (await h.api('/_emulator/faults')).body.data;
    expect(listed).toEqual([expect.objectContaining({ id: add.body.id, hits: 1, remaining: 0 })]);
    mic.close();
  }, 60_000);
});
