import type { Hono } from 'hono';
import type { Clock } from './clock.js';
import type { Db } from './db/database.js';
import type { IdSource } from './ids.js';
import type { EmulatorOptions } from './options.js';
import type { AuthContext } from './auth/authenticate.js';

/** What every resource module gets: the store, time, randomness and the options. */
export interface EmulatorContext {
  db: Db;
  clock: Clock;
  ids: IdSource;
  options: EmulatorOptions;
  /** Directory of the data dir's blobs (`null` when in memory: blobs live in a temp dir). */
  blobDir: string;
  /** The package's fixtures directory (stock personas, sample media). */
  fixturesDir: string;
  log: (line: string) => void;
  /**
   * The operator token of this start (`op_<hex>`): with the bootstrap keys, the credential
   * of the operator routes (`Authorization: Bearer`); a same-origin page the emulator serves
   * (the playground) may have it injected at load. Never put it in a URL (docs/security.md).
   */
  operatorToken: string;
  /** Hooks run on stop (workers, timers), last registered first. */
  onStop: (fn: () => void | Promise<void>) => void;
  // `services` (the emulator's services, built once in order) is added to this interface by
  // src/emulator/services.ts, so this module imports none of them (no import ring).
}

export type AppEnv = { Variables: { auth: AuthContext | null } };
export type App = Hono<AppEnv>;
