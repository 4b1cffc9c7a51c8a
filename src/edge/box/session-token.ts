import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/** The claims of a session token the box relies on (spec 5.4; claims other than `agent` are ours). */
export interface SessionClaims extends JWTPayload {
  sub: string;
  /** Frozen session snapshot (avatar, prompt, tools, config, language, capture, cap...). */
  session: Record<string, unknown>;
  agent?: Record<string, unknown>;
}

/**
 * Offline verification of session tokens (spec 5.4): EdDSA signatures checked against the
 * control plane's JWKS (fetched once and cached by jose), issuer = control plane, audience
 * = this box (a token minted for another box is refused).
 */
export function sessionTokenVerifier(controlPlaneUrl: string, boxId: string) {
  const jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', controlPlaneUrl));
  return async (token: string): Promise<SessionClaims> => {
    const { payload } = await jwtVerify(token, jwks, {
      issuer: controlPlaneUrl,
      audience: boxId,
      algorithms: ['EdDSA'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.session !== 'object') throw new Error('not a session token');
    return payload as SessionClaims;
  };
}
