import { describe, expect, it } from 'vitest';
import { useEmulator } from './helpers/emulator.js';

const h = useEmulator({ seats: 8 });

describe('domain_allowlist bounds', () => {
  it('mints with a reasonable list and refuses an oversized one with the envelope', async () => {
    const mint = (domain_allowlist: unknown) =>
      h.fetch('/api/v1/sessions', {
        key: h.emu.keys.secretKey,
        method: 'POST',
        body: JSON.stringify({ persona: 'ava', domain_allowlist }),
      });
    const ok = await mint(['https://app.example.com', 'https://admin.example.com']);
    expect(ok.status).toBe(201);
    for (const bad of [
      Array.from({ length: 101 }, (_, i) => `https://a${i}.example.com`),
      ['x'.repeat(2_049)],
      [''],
    ]) {
      const r = await mint(bad);
      expect(r.status).toBe(400);
      const body = (await r.json()) as { error: string; detail: string };
      expect(body.error).toBe('invalid_request');
      expect(body.detail).toMatch(/^domain_allowlist/);
    }
  });
});
