import { timingSafeEqual } from 'node:crypto';

/**
 * The one constant-time comparison of secrets (keys, hashes, signatures, callback secrets):
 * bytes or UTF-8 text; different lengths are unequal at once (a length is no secret).
 */
export function sameSecret(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.byteLength === y.byteLength && timingSafeEqual(x, y);
}
