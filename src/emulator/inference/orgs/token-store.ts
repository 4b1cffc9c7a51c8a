import { hashKey } from '../../auth/credentials.js';
import { unixSeconds } from '../../clock.js';
import type { EmulatorContext } from '../../context.js';
import type { Db } from '../../db/database.js';
import { orgSql } from './sql.js';
import { sameSecret } from '../../../server/safe-equal.js';

/**
 * Organisation tokens (spec 4.12 POST /api/organizations/{orgId}/tokens): inference keys of
 * the form `inf_<8hex>.<56hex>` (format ours, docs/fidelity.md), stored like every other
 * key: SHA-256 of the whole token, looked up by its public part, compared in constant time.
 */
export const ORG_TOKEN_PATTERN = /^inf_([0-9a-f]{8})\.([0-9a-f]{56})$/;

export interface OrgTokenRow {
  id: string;
  org_id: string;
  name: string;
  scopes: string;
  lookup: string;
  secret_hash: Buffer;
  token_prefix: string;
  status: 'active' | 'revoked';
  created_at: number;
  revoked_at: number | null;
}

export function findOrgToken(db: Db, raw: string): OrgTokenRow | null {
  const m = ORG_TOKEN_PATTERN.exec(raw);
  if (!m) return null;
  const row = orgSql(db).getOrgTokensByLookup.get(m[1]) as OrgTokenRow | undefined;
  if (!row) return null;
  return sameSecret(hashKey(raw), row.secret_hash) ? row : null;
}

export function insertOrgToken(
  ctx: EmulatorContext,
  orgId: string,
  name: string,
  scopes: string[],
): { row: OrgTokenRow; secret: string } {
  const exists = orgSql(ctx.db).orgTokenLookupTaken;
  let lookup = ctx.ids.hex(4);
  while (exists.get(lookup)) lookup = ctx.ids.hex(4);
  const secret = `inf_${lookup}.${ctx.ids.hex(28)}`;
  const id = ctx.ids.uuid();
  orgSql(ctx.db).insertOrgTokens.run(
    id,
    orgId,
    name,
    JSON.stringify(scopes),
    lookup,
    hashKey(secret),
    secret.slice(0, 8),
    unixSeconds(ctx.clock),
  );
  return {
    row: orgSql(ctx.db).getOrgTokensById.get(id) as OrgTokenRow,
    secret,
  };
}

/** The public view of a token: never the secret. */
export const tokenView = (r: OrgTokenRow) => ({
  id: r.id,
  name: r.name,
  scopes: JSON.parse(r.scopes) as string[],
  status: r.status,
  token_prefix: r.token_prefix,
  created_at: r.created_at,
  ...(r.revoked_at ? { revoked_at: r.revoked_at } : {}),
});
