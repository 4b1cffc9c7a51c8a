import { parseKey, tokenPrefix, type KeyKind } from '../../contract/keys.js';
import { hashKey, mintKey, type KeyRow } from '../auth/credentials.js';
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { tokenSql } from './sql.js';

export interface NewKey {
  userId: string;
  workspaceId: string | null;
  name: string;
  kind: KeyKind;
  scopes: readonly string[];
  allowedOrigins: readonly string[] | null;
  deviceId?: string | null;
  /** A fixed raw value (a seed file's key, issue 18 item 2) instead of a fresh one; must parse as `kind`. */
  raw?: string;
}

/** Store a new credential (hashed) and return its row and the raw value, shown once. */
export function insertKey(ctx: EmulatorContext, k: NewKey): { row: KeyRow; raw: string } {
  const parsed = k.raw ? parseKey(k.raw) : null;
  const minted =
    k.raw && parsed
      ? { raw: k.raw, lookup: parsed.lookup, hash: hashKey(k.raw), prefix: tokenPrefix(k.raw) }
      : mintKey(ctx.db, ctx.ids, k.kind);
  const id = ctx.ids.uuid();
  tokenSql(ctx.db).insertApiKeys.run(
    id,
    k.userId,
    k.workspaceId,
    k.deviceId ?? null,
    k.name,
    k.kind,
    JSON.stringify(k.scopes),
    k.allowedOrigins ? JSON.stringify(k.allowedOrigins) : null,
    minted.lookup,
    minted.hash,
    minted.prefix,
    unixSeconds(ctx.clock),
  );
  return {
    row: tokenSql(ctx.db).getApiKeysById.get(id) as KeyRow,
    raw: minted.raw,
  };
}
