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
    allowed_origins: z.string().nullable().describe('JSON-encoded array of origins (publishable keys)'),
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

/** An http(s) origin: scheme, host and optional port, nothing else. */
export const HttpOrigin = z.url({ protocol: /^https?$/ }).refine((u) => {
  try {
    const parsed = new URL(u);
    return parsed.origin === u.replace(/\/$/, '');
  } catch {
    return false;
  }
}, 'must be an origin (scheme://host[:port])');

export const CreateTokenBody = z
  .object({
    name: z.string().min(1),
    kind: TokenKind.default('secret'),
    // Full scope list: not shown (spec 5.3). Well-formed `<area>:<verb>` scopes we do not
    // know are kept (the real list is longer); anything else is a typo worth refusing.
    scopes: z
      .array(z.string().regex(/^(\*|[a-z][a-z_]*:[a-z][a-z_]*)$/, 'scopes look like `sessions:write` or `*`'))
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
