import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator();
const ORIGIN = 'https://app.example.com';

describe('CORS on the control plane (browsers with publishable keys)', () => {
  it('answers a preflight for an authorized JSON POST', async () => {
    const res = await h.fetch('/api/v1/sessions', {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
      'authorization',
    );
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('lets the page read answers and Retry-After, and still enforces the key origins', async () => {
    const key = h.emu.keys.secretKey;
    const pk = (await (
      await h.fetch('/api/v1/tokens', {
        key,
        method: 'POST',
        body: JSON.stringify({ name: 'web', kind: 'publishable', allowedOrigins: [ORIGIN] }),
      })
    ).json()) as { token: string };
    const ok = await h.fetch('/api/gallery', { headers: { origin: ORIGIN } });
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const foreign = await h.fetch('/api/v1/sessions', {
      key: pk.token,
      method: 'POST',
      headers: { origin: 'https://evil.example.net' },
      body: JSON.stringify({ persona: 'ava' }),
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as { error: string }).error).toBe('origin_not_allowed');
  });
});

describe('CORS headers are set once', () => {
  it.each(['/api/model-status', '/api/jobs/nope', '/api/v1/workspaces', '/compat-a/v1/models'])(
    '%s answers one Allow-Origin and one Vary',
    async (path) => {
      const res = await h.fetch(path, {
        key: h.emu.keys.dashboardKey,
        headers: { origin: ORIGIN },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(
        res.headers
          .get('vary')
          ?.split(',')
          .map((v) => v.trim().toLowerCase())
          .filter((v) => v === 'origin'),
      ).toHaveLength(1);
    },
  );
});
