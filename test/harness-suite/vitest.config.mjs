// The suite `avatar emulator exec` runs in test/harness-exec.test.ts: an app developer's
// own tests, written with the official openai client, against the emulator exec started.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.suite.mjs'], testTimeout: 30_000 },
});
