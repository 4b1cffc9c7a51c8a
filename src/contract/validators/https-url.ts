/**
 * The spec's URLs a tenant names (`agent.hook`, `notify.url`, webhook endpoints, MCP
 * servers, trusted issuers' `jwks_uri`) are https. The emulator's `--allow-insecure-urls`
 * takes plain http too (tests and local servers, ARCHITECTURE property 1), so every refusal
 * that flag lifts names it, in one sentence built here; the spec's error code stays.
 */

/** The emulator flag that lets plain-http (and local) URLs through. */
export const ALLOW_INSECURE_URLS_FLAG = '--allow-insecure-urls';

/** https only; plain http too when `allowInsecure`. */
export function isAllowedUrl(s: string, allowInsecure: boolean): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || (allowInsecure && u.protocol === 'http:');
  } catch {
    return false;
  }
}

/**
 * A refusal the emulator's flag would lift, saying so:
 * `agent.hook must be an https URL (this emulator accepts it when started with --allow-insecure-urls)`.
 */
export const liftedByInsecureUrls = (refusal: string): string =>
  `${refusal} (this emulator accepts it when started with ${ALLOW_INSECURE_URLS_FLAG})`;
