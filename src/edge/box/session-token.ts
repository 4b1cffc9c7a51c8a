import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { type Clock } from '../../contract/clock.js';

/** The claims of a session token the box relies on (spec 5.4; claims other than `agent` are ours). */
export interface SessionClaims extends JWTPayload {
  sub: string;
  /** Frozen session snapshot (avatar, prompt, tools, config, language, capture, cap...). */
  session: Record<string, unknown>;
  agent?: Record<string, unknown>;
}

/** Why a token was refused: the `error` code and message the client sees. */
export class TokenRefused extends Error {
  constructor(
    readonly code: 'unauthorized' | 'token_expired' | 'wrong_box',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Offline verification of session tokens (spec 5.4): EdDSA signatures checked against the
 * control plane's JWKS (fetched once and cached by jose), issuer = control plane, audience
 * = this box (a token minted for another box is refused). Expiry is judged on the box's
 * clock; `allowExpired` serves sockets of a session already connected (the token's
 * `expires_at` is a connect deadline, not a session length: spec 4.5).
 */
export function sessionTokenVerifier(controlPlaneUrl: string, boxId: string, clock: Clock) {
  const jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', controlPlaneUrl));
  return async (token: string, opts: { allowExpired?: boolean } = {}): Promise<SessionClaims> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: controlPlaneUrl,
        algorithms: ['EdDSA'],
        currentDate: new Date(clock.now()),
        clockTolerance: opts.allowExpired ? Number.MAX_SAFE_INTEGER / 1e6 : 0,
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired)
        throw new TokenRefused(
          'token_expired',
          'the session token has expired; mint a new session',
        );
      throw new TokenRefused(
        'unauthorized',
        'the session token is not valid (bad signature, issuer or format)',
      );
    }
    const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!aud.includes(boxId))
      throw new TokenRefused(
        'wrong_box',
        'the session token was minted for another box; connect to its connect_url',
      );
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.session !== 'object' ||
      payload.session === null
    ) {
      throw new TokenRefused('unauthorized', 'not a session token');
    }
    return payload as SessionClaims;
  };
}

export type TokenVerifier = ReturnType<typeof sessionTokenVerifier>;

/** The token of a request: `?token=` (browsers) or `Authorization: Bearer` (spec 4.6). */
export function tokenOf(url: URL, authorization: string | undefined): string | null {
  const q = url.searchParams.get('token');
  if (q) return q;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return m ? m[1]! : null;
}
