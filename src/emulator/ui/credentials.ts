import type { EmulatorContext } from '../context.js';
import { getSetting } from '../db/database.js';
import type { BootstrapKeys } from '../bootstrap/bootstrap.js';

/**
 * The credentials the playground page is given in its HTML (never in a URL): `apiKey` for
 * the public API (the same routes an app calls) and `operatorToken` for the emulator's own
 * `/_emulator/*` routes: the bootstrap dashboard key (not workspace-bound, scopes `*`) and
 * the per-start operator token (docs/security.md). The page is served only to a loopback
 * Host and may not be framed, so a foreign page can neither load nor read it.
 */
export function playgroundCredentials(ctx: EmulatorContext): {
  apiKey: string;
  operatorToken: string;
} {
  const keys = JSON.parse(getSetting(ctx.db, 'bootstrap') ?? '{}') as Partial<BootstrapKeys>;
  const key = keys.dashboardKey ?? '';
  return { apiKey: key, operatorToken: ctx.operatorToken };
}
