import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

export const TokenKind = z.enum(['secret', 'publishable']);

export const TokenSchema = named(
  'Token',
  z.object({
    id: Uuid,
    name: z.string(),
    token_prefix: z.string(),
    scopes: z.union([z.array(z.string()), z.string()]),
    status: z.enum(['active', 'revoked']),
    workspace_id: Uuid.nullable(),
    kind: z.string(),
    allowed_origins: z
      .string()
      .nullable()
      .describe('JSON-encoded array of origins (publishable keys)'),
    created_at: UnixSeconds,
  }),
);

export const CreatedTokenSchema = named(
  'CreatedToken',
  z.object({
    id: Uuid,
    name: z.string(),
    token: z.string().describe('full value, returned only on creation'),
    scopes: z.array(z.string()),
    kind: z.string(),
    allowed_origins: z.array(z.string()).nullable(),
    created_at: UnixSeconds,
  }),
);

/**
 * The serialized origin of an http(s) URL that names only an origin (RFC 6454: scheme and
 * host lower-cased, default port dropped, no trailing slash), as browsers send it in
 * `Origin`; null for anything with a path, query, fragment, credentials or a wildcard
 * host, which could never equal an `Origin` header.
 */
export function serializeOrigin(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.username || u.password || u.pathname !== '/' || raw.includes('?') || raw.includes('#'))
      return null;
    if (u.hostname.includes('*')) return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** An http(s) origin: scheme, host and optional port, nothing else; stored serialized. */
export const HttpOrigin = z
  .url({ protocol: /^https?$/ })
  .refine(
    (u) => serializeOrigin(u) !== null,
    'must be an origin (scheme://host[:port]; no path, query, credentials or wildcard)',
  )
  .transform((u) => serializeOrigin(u)!);

export const CreateTokenBody = z
  .object({
    name: z.string().min(1),
    kind: TokenKind.default('secret'),
    // Full scope list: not shown (spec 5.3). Well-formed `<area>:<verb>` scopes we do not
    // know are kept (the real list is longer); anything else is a typo worth refusing.
    scopes: z
      .array(
        z
          .string()
          .regex(/^(\*|[a-z][a-z_]*:[a-z][a-z_]*)$/, 'scopes look like `sessions:write` or `*`'),
      )
      .min(1)
      .default(['*']),
    allowedOrigins: z.array(HttpOrigin).optional(),
    workspaceId: Uuid.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'publishable' && (!b.allowedOrigins || b.allowedOrigins.length === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['allowedOrigins'],
        message: 'publishable keys need at least one http(s) origin',
      });
    }
  });

export const RevokedSchema = named(
  'Revoked',
  z.object({ ok: z.literal(true), revoked_at: UnixSeconds }),
);
