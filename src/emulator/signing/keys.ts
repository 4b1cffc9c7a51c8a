import { createPrivateKey, sign as edSign } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/database.js';
import { getSetting, setSetting } from '../db/database.js';

/**
 * The control plane's Ed25519 signing key (spec 5.4: EdDSA session JWTs, verified offline
 * by the edge through the JWKS). Created once per data dir and kept in its settings table.
 */
export interface SigningKey {
  kid: string;
  publicJwk: JWK & { kty: string; crv: string; x: string; kid: string; alg: 'EdDSA'; use: 'sig' };
  /** Sign claims as an EdDSA JWT valid `ttlSeconds` from `nowSeconds`. */
  sign(
    claims: Record<string, unknown>,
    opts: {
      nowSeconds: number;
      ttlSeconds: number;
      subject?: string;
      audience?: string;
      jti?: string;
    },
  ): Promise<string>;
}

export async function loadSigningKey(db: Db, issuer: string): Promise<SigningKey> {
  let stored = getSetting(db, 'signing_jwk');
  if (!stored) {
    const { privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    stored = JSON.stringify(await exportJWK(privateKey));
    setSetting(db, 'signing_jwk', stored);
  }
  const privateJwk = JSON.parse(stored) as JWK;
  const key = createPrivateKey({
    key: privateJwk as import('node:crypto').JsonWebKey,
    format: 'jwk',
  });
  const { d: _d, ...pub } = privateJwk;
  const kid = await calculateJwkThumbprint(pub);
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid, typ: 'JWT' })).toString(
    'base64url',
  );
  return {
    kid,
    // An Ed25519 public JWK (RFC 8037): kty OKP, crv Ed25519, x.
    publicJwk: {
      ...(pub as JWK & { kty: string; crv: string; x: string }),
      kid,
      alg: 'EdDSA',
      use: 'sig',
    },
    // A compact JWS (RFC 7515 7.1) signed with node:crypto's Ed25519 in its callback form,
    // which runs the signature on the thread pool like WebCrypto but without jose's
    // WebCrypto wrapping (the largest single cost of a mint on the main thread, issue 7
    // item 13). Same algorithm and bytes; every verifier (the edge, tests) uses jose.
    async sign(claims, opts) {
      const payload: Record<string, unknown> = {
        ...claims,
        iss: issuer,
        iat: opts.nowSeconds,
        exp: opts.nowSeconds + opts.ttlSeconds,
      };
      if (opts.subject) payload.sub = opts.subject;
      if (opts.audience) payload.aud = opts.audience;
      if (opts.jti) payload.jti = opts.jti;
      const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
      const signature = await new Promise<Buffer>((resolve, reject) =>
        edSign(null, Buffer.from(input), key, (err, sig) => (err ? reject(err) : resolve(sig))),
      );
      return `${input}.${signature.toString('base64url')}`;
    },
  };
}
