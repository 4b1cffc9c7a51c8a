import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

/*
 * A keep-alive connection a busy client reuses late (issue 32 item 16). Node's fetch
 * (undici) keeps an idle connection until 2 s before the server's advertised `Keep-Alive:
 * timeout=N`, but counts that time in ticks of its own event loop: a process that was busy
 * counts less time than has passed, and reuses the connection after the server has dropped
 * it (`fetch failed`: `other side closed` or `read ECONNRESET`). Users' own clients on a busy
 * machine meet the same, so the server holds an idle connection well past what it advertises.
 */
const h = useEmulator();

/** Keep this whole process (client and emulator alike) busy for `ms`: a machine under load. */
const busy = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('an idle keep-alive connection', () => {
  it('still answers a busy client that reuses it after the advertised timeout', async () => {
    const first = await h.fetch('/api/v1/openapi.json');
    await first.arrayBuffer();
    const advertised = /timeout=(\d+)/.exec(first.headers.get('keep-alive') ?? '');
    expect(advertised, 'the server advertises its keep-alive timeout').not.toBeNull();
    const ms = Number(advertised![1]) * 1000;
    // The next request starts from a timer that falls due just after the advertised timeout,
    // while the process is busy past both: the client has not yet counted the connection
    // stale (its ticks did not run) and reuses it.
    const next = new Promise((r) => setTimeout(r, ms + 300));
    busy(ms + 1000);
    await next;
    const again = await h.api(`/api/v1/workspaces/${h.emu.keys.workspaceId}`, {
      method: 'PATCH',
      body: { name: 'busy' },
    });
    expect(again.status).toBe(200);
    expect(again.body.name).toBe('busy');
  });
});
