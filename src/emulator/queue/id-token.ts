/**
 * Trusted-issuer `id_token`s as a credential on the queue status route (spec 4.4, 4.5,
 * 5.6). A native app signs in with its own identity provider; the workspace registered that
 * provider as a trusted issuer (`iss`, `aud`, `jwks_uri`, `algs`), and the app reads its
 * ticket with `Authorization: Bearer <id_token>` plus `?workspace_id=`.
 *
 * Verification (jose): signature against the issuer's remote JWKS, algorithm in the
 * issuer's `algs`, `iss` and `aud` equal to the registered ones, `exp` required and checked
 * against the injected clock. Every failure is 401 `unauthorized`: a token we cannot verify
 * is not a credential, whatever the reason (docs/fidelity.md).
 */
import { LRUCache } from 'lru-cache';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { isAllowedUrl, liftedByInsecureUrls } from '../../contract/validators/https-url.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../../server/api-error.js';
import { issuerSql } from '../issuers/sql.js';

/** Three base64url segments: a JWS compact serialization (API keys have one dot). */
export const looksLikeJwt = (s: string): boolean =>
  /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(s);

interface IssuerRow {
  id: string;
  iss: string;
  aud: string;
  jwks_uri: string;
  algs: string;
}

export interface IdTokenCaller {
  workspaceId: string;
  issuerId: string;
  subject: string | null;
}

const unauthorized = (message: string) => new ApiError(401, 'unauthorized', { message });

/** Remote key sets are cached per `jwks_uri` (jose refetches on an unknown `kid`, with a cooldown). */
const MAX_CACHED_KEY_SETS = 256;

export class IdTokenVerifier {
  private readonly keySets = new LRUCache<string, JWTVerifyGetKey>({ max: MAX_CACHED_KEY_SETS });
  private readonly issuersOf;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly opts: { allowInsecureUrls: boolean; timeoutMs?: number },
  ) {
    this.issuersOf = issuerSql(db).getTrustedIssuersByWorkspaceIdAndIss;
  }

  /** The caller behind a trusted-issuer id_token in `workspaceId`, or 401. */
  async verify(token: string, workspaceId: string): Promise<IdTokenCaller> {
    let claims: { iss?: unknown; aud?: unknown };
    try {
      claims = decodeJwt(token);
    } catch {
      throw unauthorized('malformed id_token');
    }
    if (typeof claims.iss !== 'string') throw unauthorized('id_token has no iss');
    const auds =
      typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    const rows = (this.issuersOf.all(workspaceId, claims.iss) as IssuerRow[]).filter((r) =>
      auds.includes(r.aud),
    );
    if (rows.length === 0)
      throw unauthorized('id_token issuer and audience are not trusted in this workspace');
    let last = 'id_token rejected';
    for (const row of rows) {
      if (!isAllowedUrl(row.jwks_uri, this.opts.allowInsecureUrls)) {
        last = liftedByInsecureUrls('the trusted issuer jwks_uri is not https');
        continue;
      }
      const algorithms = parseAlgs(row.algs);
      if (algorithms.length === 0) continue;
      try {
        const { payload } = await jwtVerify(token, this.keySet(row.jwks_uri), {
          issuer: row.iss,
          audience: row.aud,
          algorithms,
          requiredClaims: ['exp'],
          currentDate: new Date(this.clock.now()),
        });
        return {
          workspaceId,
          issuerId: row.id,
          subject: typeof payload.sub === 'string' ? payload.sub : null,
        };
      } catch (err) {
        last = `id_token rejected: ${(err as { code?: string }).code ?? (err as Error).message}`;
      }
    }
    throw unauthorized(last);
  }

  private keySet(uri: string): JWTVerifyGetKey {
    let set = this.keySets.get(uri);
    if (!set) {
      set = createRemoteJWKSet(new URL(uri), { timeoutDuration: this.opts.timeoutMs ?? 5000 });
      this.keySets.set(uri, set);
    }
    return set;
  }
}

/** The issuer's allowed algorithms (stored as a JSON array; spec 2 also allows a raw string). */
function parseAlgs(raw: string): string[] {
  try {
    const v = JSON.parse(raw) as unknown;
    if (Array.isArray(v)) return v.filter((a): a is string => a === 'RS256' || a === 'ES256');
    if (typeof v === 'string') return [v];
  } catch {
    // a raw, comma-separated string
  }
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((a) => a === 'RS256' || a === 'ES256');
}
