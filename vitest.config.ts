import { defineConfig } from 'vitest/config';

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
  },
});
