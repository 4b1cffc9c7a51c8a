import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../src/emulator/clock.js';
import { useEmulator } from './helpers/emulator.js';

const clock = new ManualClock(Date.UTC(2026, 5, 1));
const manual = useEmulator({ clock });
const real = useEmulator({ clock: systemClock });

describe('operator clock (/_emulator/clock)', () => {
  it('reports and advances a manual clock, which the API then uses for its timestamps', async () => {
    const before = (await (await manual.op('/_emulator/clock')).json()) as {
      now_ms: number;
      manual: boolean;
    };
    expect(before).toMatchObject({
      now_ms: Date.UTC(2026, 5, 1),
      manual: true,
      frozen: true,
      drivable: true,
    });
    const res = await manual.op('/_emulator/clock/advance', {
      method: 'POST',
      body: JSON.stringify({ ms: 86_400_000 }),
    });
    expect(await res.json()).toMatchObject({ now_ms: Date.UTC(2026, 5, 2) });
    const ws = (await (
      await manual.fetch('/api/v1/workspaces', {
        key: manual.emu.keys.secretKey,
        method: 'POST',
        body: JSON.stringify({ name: 'later' }),
      })
    ).json()) as { created_at: number };
    expect(ws.created_at).toBe(Date.UTC(2026, 5, 2) / 1000);
  });

  it('refuses bad advances, and a clock of its own that cannot be driven, with the envelope', async () => {
    for (const body of ['{"ms":-1}', '{"ms":"soon"}']) {
      const r = await manual.op('/_emulator/clock/advance', { method: 'POST', body });
      expect(r.status).toBe(400);
    }
    expect(
      (await manual.op('/_emulator/clock/advance', { method: 'POST', body: '{' })).status,
    ).toBe(400);
    const r = await real.op('/_emulator/clock/advance', { method: 'POST', body: '{"ms":1000}' });
    expect(r.status).toBe(409);
    expect(((await r.json()) as { error: string }).error).toBe('clock_not_drivable');
  });
});

describe('token scopes', () => {
  it('keeps well-formed unknown scopes and refuses malformed ones', async () => {
    const ok = await real.fetch('/api/v1/tokens', {
      key: real.emu.keys.secretKey,
      method: 'POST',
      body: JSON.stringify({ name: 'x', scopes: ['sessions:read', 'billing:read'] }),
    });
    expect(ok.status).toBe(201);
    for (const scopes of [['all'], [''], ['Sessions:Write'], []]) {
      const r = await real.fetch('/api/v1/tokens', {
        key: real.emu.keys.secretKey,
        method: 'POST',
        body: JSON.stringify({ name: 'x', scopes }),
      });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/^scopes/);
    }
  });
});
