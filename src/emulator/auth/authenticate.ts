import type { Context } from 'hono';
import { hasScope, type ScopeRequirement } from '../../contract/scopes.js';
import type { KeyKind } from '../../contract/keys.js';
import { serializeOrigin } from '../../contract/resources/token.js';
import { ApiError } from '../../server/api-error.js';
import type { Db } from '../db/database.js';
import { findKey } from './credentials.js';
import { deviceSql } from '../devices/sql.js';

/** Who is calling: derived from the bearer key (spec 5). */
export interface AuthContext {
  keyId: string;
  kind: KeyKind;
  userId: string;
  /** Bound workspace, or null for a dashboard (unbound) key. */
  workspaceId: string | null;
  scopes: string[];
  deviceId: string | null;
  /** Request Origin (checked for publishable keys). */
  origin: string | null;
}

export function bearer(c: Context): string | null {
  const h = c.req.header('authorization');
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : '';
}

const unauthorized = (message: string) => new ApiError(401, 'unauthorized', { message });

/**
 * Resolve the caller's key and check it against a route's requirement.
 * 401 for a missing, malformed, unknown or revoked key; 403 `origin_not_allowed` for a
 * publishable key from a foreign Origin; 403 `forbidden` for a missing scope.
 */
export function authenticate(
  db: Db,
  c: Context,
  need: ScopeRequirement,
  nowSeconds?: number,
): AuthContext {
  const raw = bearer(c);
  if (raw === null) throw unauthorized('missing Authorization: Bearer <API_KEY>');
  if (raw === '') throw unauthorized('malformed Authorization header');
  const row = findKey(db, raw);
  if (!row) throw unauthorized('invalid API key');
  if (row.status !== 'active') throw unauthorized('API key revoked');
  const origin = c.req.header('origin') ?? null;
  if (row.kind === 'publishable') {
    const allowed = (JSON.parse(row.allowed_origins ?? '[]') as string[]).map(
      (o) => serializeOrigin(o) ?? o,
    );
    const sent = origin ? serializeOrigin(origin) : null;
    if (!sent || !allowed.includes(sent)) {
      throw new ApiError(403, 'origin_not_allowed', {
        message: origin
          ? `origin ${origin} is not registered for this key`
          : 'publishable keys need a browser Origin',
      });
    }
  }
  if (row.kind === 'device' && row.device_id) {
    const dev = deviceSql(db).getDevicesStatusById.get(row.device_id) as
      | { status: string }
      | undefined;
    if (!dev || dev.status !== 'active') throw unauthorized('device revoked');
    // Device record: last_seen_at moves whenever the device's credential is presented.
    if (nowSeconds !== undefined)
      deviceSql(db).setDevicesLastSeenAtById.run(nowSeconds, row.device_id);
  }
  const scopes = JSON.parse(row.scopes) as string[];
  if (!hasScope(scopes, need)) {
    throw new ApiError(403, 'forbidden', {
      message: `key lacks scope ${need.anyOf.join(' or ')}`,
      detail: `missing_scope:${need.anyOf[0]}`,
    });
  }
  return {
    keyId: row.id,
    kind: row.kind,
    userId: row.user_id,
    workspaceId: row.workspace_id,
    scopes,
    deviceId: row.device_id,
    origin,
  };
}

/** Only secret keys may do this (spec 5.9). */
export function requireSecret(
  auth: AuthContext,
  code = 'forbidden',
  message = 'secret key required',
): void {
  if (auth.kind !== 'secret') throw new ApiError(403, code, { message });
}
