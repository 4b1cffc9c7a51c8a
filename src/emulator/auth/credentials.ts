import { createHash } from 'node:crypto';
import { formatKey, parseKey, tokenPrefix, type KeyKind } from '../../contract/keys.js';
import type { Db } from '../db/database.js';
import type { IdSource } from '../ids.js';
import { tokenSql } from '../tokens/sql.js';
import { sameSecret } from '../../server/safe-equal.js';

/**
 * Keys are stored as SHA-256 of the whole raw token (they are 256-bit random, so a
 * fast hash is enough) and compared in constant time after a lookup on the public
 * 8-hex part. Only `token_prefix` (first 8 chars) is ever shown again.
 */
export function hashKey(raw: string): Buffer {
  return createHash('sha256').update(raw, 'utf8').digest();
}

export interface MintedKey {
  raw: string;
  lookup: string;
  hash: Buffer;
  prefix: string;
}

/** Mint a fresh credential of `kind`, unique in the store. */
export function mintKey(db: Db, ids: IdSource, kind: KeyKind): MintedKey {
  const exists = tokenSql(db).apiKeyLookupTaken;
  for (;;) {
    const lookup = ids.hex(4);
    if (exists.get(lookup)) continue;
    const raw = formatKey(kind, lookup, ids.hex(28));
    return { raw, lookup, hash: hashKey(raw), prefix: tokenPrefix(raw) };
  }
}

export interface KeyRow {
  id: string;
  user_id: string;
  workspace_id: string | null;
  device_id: string | null;
  name: string;
  kind: KeyKind;
  scopes: string;
  allowed_origins: string | null;
  lookup: string;
  secret_hash: Buffer;
  token_prefix: string;
  status: 'active' | 'revoked';
  created_at: number;
  revoked_at: number | null;
}

/** Find the stored key a raw bearer string names, or null (constant-time compare). */
export function findKey(db: Db, raw: string): KeyRow | null {
  const parsed = parseKey(raw);
  if (!parsed) return null;
  const row = tokenSql(db).getApiKeysByLookup.get(parsed.lookup) as KeyRow | undefined;
  if (!row || row.kind !== parsed.kind) return null;
  const given = hashKey(raw);
  return sameSecret(given, row.secret_hash) ? row : null;
}
