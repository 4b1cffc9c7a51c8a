import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runningBoxes } from '../src/emulator/fleet/spawn.js';
import { generationState } from '../src/emulator/generations/state.js';
import { servicesNotBuilt } from '../src/emulator/services.js';
import { sessionRuntime } from '../src/emulator/sessions/runtime.js';
import { startEmulator } from '../src/emulator/start.js';
import { toolGateway } from '../src/emulator/tools/gateway-routes.js';

/** Issue 31 item 4: start.ts builds each emulator's services once and hands them down. */
describe('the composition root (src/emulator/services.ts)', () => {
  it('two emulators in one process each get their own services, handed down, not looked up', async () => {
    const a = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true, boxes: 1 });
    const b = await startEmulator({ port: 0, host: '127.0.0.1', inMemory: true, boxes: 0 });
    try {
      expect(a.ctx.services.sessions).not.toBe(b.ctx.services.sessions);
      expect(sessionRuntime(a.ctx)).toBe(a.ctx.services.sessions);
      expect(toolGateway(b.ctx)).toBe(b.ctx.services.tools);
      // The runtime works on the fleet it was given: a's box registered there, b has none.
      expect(a.ctx.services.sessions.fleet).toBe(a.ctx.services.fleet);
      expect(generationState(a.ctx)).toBe(a.ctx.services.generations);
      expect(runningBoxes(a.ctx)).toHaveLength(1);
      expect(runningBoxes(b.ctx)).toHaveLength(0);
      expect(a.ctx.services.fleet.get(runningBoxes(a.ctx)[0]!.id)).toBeDefined();
    } finally {
      await b.stop();
      await a.stop();
    }
    // Stopped in reverse: the in-process boxes (started last) are gone.
    expect(runningBoxes(a.ctx)).toHaveLength(0);
  }, 60_000);

  it('a service read before buildServices is named as a wiring mistake', () => {
    expect(() => servicesNotBuilt.sessions).toThrow(
      'emulator service sessions read before buildServices (start.ts)',
    );
  });

  it('no module keeps a per-emulator singleton of its own (a WeakMap keyed by the context)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const offenders = files('src').filter((f) =>
      /new WeakMap<\s*EmulatorContext/.test(readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
