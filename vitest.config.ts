import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A test's time limit is for a hang, not a speed check: on a busy machine (load 20 on two
    // cores) the CPU-bound tests (flite, openapi-typescript's compile) take many times longer.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one fork: files run one after another, and much
    // of the suite waits on real-time media. Two forks overlap those waits (CI under 15 min).
    maxWorkers: 2,
    minWorkers: 1,
    // Files share their fork (issue 32 item 19): each module (src, helpers, dependencies) is
    // loaded once per fork instead of once per file, which was a third of the suite's time
    // (collect). Module-level state in src is caches; what a file does to process.env is put
    // back when it ends (test/helpers/file-setup.ts), as are stubbed envs and globals.
    isolate: false,
    setupFiles: ['./test/helpers/file-setup.ts'],
    unstubEnvs: true,
    unstubGlobals: true,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // The files that wait longest on real time start first (a fresh clone has no timing cache).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
