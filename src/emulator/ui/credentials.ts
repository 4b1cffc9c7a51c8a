import type { EmulatorContext } from '../context.js';
import { getSetting } from '../db/database.js';
import type { BootstrapKeys } from '../bootstrap/bootstrap.js';

/**
 * The credentials the playground page is given in its HTML (never in a URL): `apiKey` for
 * the public API (the same routes an app calls) and `operatorToken` for the emulator's own
 * `/_emulator/*` routes. Both are the bootstrap dashboard key for now (not workspace-bound,
 * scopes `*`); the one place to switch the operator credential is here.
 */
export function playgroundCredentials(ctx: EmulatorContext): { apiKey: string; operatorToken: string } {
  const keys = JSON.parse(getSetting(ctx.db, 'bootstrap') ?? '{}') as Partial<BootstrapKeys>;
  const key = keys.dashboardKey ?? '';
  return { apiKey: key, operatorToken: key };
}
