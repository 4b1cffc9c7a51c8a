/**
 * The mint's `domain_allowlist` (spec 4.5: "origins allowed to connect; empty means all";
 * for publishable keys, the key's registered origins) travels frozen in the session token,
 * and the box enforces it on every upgrade and on /chat. An entry is a full origin
 * (`https://app.example.com`) or a bare host (`app.example.com`, any scheme). A request
 * without an `Origin` header is a server or native client, which an Origin check cannot
 * constrain (it could send any Origin), so it passes: see docs/fidelity.md.
 */
import { trimTrailingSlashes } from '../../contract/edge/url.js';
import type { SessionClaims } from './session-token.js';

export class OriginRefused extends Error {
  readonly code = 'origin_not_allowed';
}

const norm = (s: string) => trimTrailingSlashes(s.trim().toLowerCase());

export function checkOrigin(claims: SessionClaims, origin: string | undefined): void {
  const list = claims.session.domain_allowlist;
  if (!Array.isArray(list) || list.length === 0 || !origin) return;
  const o = norm(origin);
  let host = '';
  try {
    host = new URL(o).host;
  } catch {
    // an Origin that is not a URL ("null" from a sandboxed page) matches no entry
  }
  const ok = list.some(
    (e) =>
      typeof e === 'string' &&
      (norm(e) === o || (!norm(e).includes('://') && host !== '' && norm(e) === host)),
  );
  if (!ok)
    throw new OriginRefused(
      `origin ${origin} is not in this session's domain_allowlist; mint with it listed (or an empty list)`,
    );
}
