import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one fork: files run one after another, and much
    // of the suite waits on real-time media. Two forks overlap those waits (CI under 15 min).
    maxWorkers: 2,
    minWorkers: 1,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    // The files that wait longest on real time start first (a fresh clone has no timing cache).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
