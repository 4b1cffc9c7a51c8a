import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';

/** Injected randomness (ARCHITECTURE property 3): ids and secrets come from here. */
export interface IdSource {
  uuid(): string;
  /** `bytes` random bytes as lowercase hex (2 chars per byte). */
  hex(bytes: number): string;
}

/**
 * Random bytes drawn from a 4 KiB pool refilled from the CSPRNG when used up (as
 * `randomUUID` does): a mint draws three ids, and one fill serves ~100 mints instead of a
 * `randomBytes` call and a Buffer per id (issue 7 item 13). No byte is handed out twice.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function poolHex(bytes: number): string {
  if (bytes > 256) return randomBytes(bytes).toString('hex');
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const out = pool.toString('hex', used, used + bytes);
  used += bytes;
  return out;
}

export const cryptoIds: IdSource = {
  uuid: () => randomUUID(),
  hex: poolHex,
};
