import { afterAll } from 'vitest';

/*
 * Runs before each test file (vitest.config.ts `setupFiles`). Files share a worker process
 * (`isolate: false`): what one file does to the process environment (a module-level
 * `process.env.X = ...`, a `delete process.env.CI`, a `vi.stubEnv` never undone) must not
 * reach the next file, so the environment is put back as it was when the file ends.
 */
const saved = { ...process.env };

afterAll(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
});
