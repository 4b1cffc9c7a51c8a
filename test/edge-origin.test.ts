import { describe, expect, it } from 'vitest';
import { openSock, refusal, wsUrl } from './helpers/edge.js';
import { mintSession, useEmulator } from './helpers/emulator.js';
import { checkOrigin, OriginRefused } from '../src/edge/box/origin.js';
import type { SessionClaims } from '../src/edge/box/session-token.js';

/**
 * Issue 8 review: the mint's `domain_allowlist` ("origins allowed to connect; empty means
 * all", spec 4.5) is frozen into the session token, so the box must honour it on every
 * upgrade and on /chat.
 */

const h = useEmulator({ boxes: 1, seats: 4, mintRatePerMinute: 0 });

describe('domain_allowlist at the box', () => {
  it('a browser on an origin outside the allowlist is refused with 403 origin_not_allowed; a listed origin connects', async () => {
    const m = await mintSession(h, { domain_allowlist: ['https://app.example.com'] });
    for (const path of ['/mse', '/mic_stream', '/events']) {
      const r = await refusal(wsUrl(m.connect_url, path, m.session_token), {
        headers: { origin: 'https://evil.example.net' },
      });
      expect(r).toMatchObject({
        status: 403,
        body: {
          error: 'origin_not_allowed',
          message: expect.stringContaining('https://evil.example.net'),
        },
      });
    }
    const chat = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      headers: { origin: 'https://evil.example.net' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(chat.status).toBe(403);
    expect(await chat.json()).toMatchObject({ error: 'origin_not_allowed' });
    // Refusals never made the session active.
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('pending');

    const ok = await openSock(wsUrl(m.connect_url, '/mic_stream', m.session_token), {
      headers: { origin: 'https://app.example.com' },
    });
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    ok.close();
  });

  it('an Origin of a long run of slashes is refused (an answer, not a stalled box)', async () => {
    const m = await mintSession(h, { domain_allowlist: ['https://app.example.com/'] });
    const chat = await fetch(`${m.connect_url}/chat?token=${m.session_token}`, {
      method: 'POST',
      headers: { origin: `https://app.example.com${'/'.repeat(12_000)}x` },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(chat.status).toBe(403);
    expect(await chat.json()).toMatchObject({ error: 'origin_not_allowed' });
    // Trailing slashes still do not matter.
    const ok = await openSock(wsUrl(m.connect_url, '/events', m.session_token), {
      headers: { origin: 'https://app.example.com///' },
    });
    ok.close();
    // checkOrigin itself, past what an HTTP header carries: refused, not a stalled box.
    const claims = {
      session: { domain_allowlist: ['app.example.com'] },
    } as unknown as SessionClaims;
    expect(() => checkOrigin(claims, `https://evil.example${'/'.repeat(200_000)}x`)).toThrow(
      OriginRefused,
    );
  });

  it('an empty allowlist admits any origin', async () => {
    const m = await mintSession(h, {});
    const s = await openSock(wsUrl(m.connect_url, '/events', m.session_token), {
      headers: { origin: 'https://anywhere.example.org' },
    });
    expect((await h.api(`/api/v1/sessions/${m.session_id}`)).body.status).toBe('active');
    s.close();
  });
});
