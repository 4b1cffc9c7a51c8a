import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { Db } from '../db/database.js';
import { getSetting, setSetting } from '../db/database.js';

/**
 * The control plane's Ed25519 signing key (spec 5.4: EdDSA session JWTs, verified offline
 * by the edge through the JWKS). Created once per data dir and kept in its settings table.
 */
export interface SigningKey {
  kid: string;
  publicJwk: JWK & { kid: string; alg: 'EdDSA'; use: 'sig' };
  /** Sign claims as an EdDSA JWT valid `ttlSeconds` from `nowSeconds`. */
  sign(claims: Record<string, unknown>, opts: { nowSeconds: number; ttlSeconds: number; subject?: string; audience?: string; jti?: string }): Promise<string>;
}

export async function loadSigningKey(db: Db, issuer: string): Promise<SigningKey> {
  let stored = getSetting(db, 'signing_jwk');
  if (!stored) {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    stored = JSON.stringify(await exportJWK(privateKey));
    setSetting(db, 'signing_jwk', stored);
  }
  const privateJwk = JSON.parse(stored) as JWK;
  const key = await importJWK(privateJwk, 'EdDSA');
  const { d: _d, ...pub } = privateJwk;
  const kid = await calculateJwkThumbprint(pub);
  return {
    kid,
    publicJwk: { ...pub, kid, alg: 'EdDSA', use: 'sig' },
    async sign(claims, opts) {
      let jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setIssuedAt(opts.nowSeconds)
        .setExpirationTime(opts.nowSeconds + opts.ttlSeconds);
      if (opts.subject) jwt = jwt.setSubject(opts.subject);
      if (opts.audience) jwt = jwt.setAudience(opts.audience);
      if (opts.jti) jwt = jwt.setJti(opts.jti);
      return jwt.sign(key);
    },
  };
}
