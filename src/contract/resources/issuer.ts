import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

export const IssuerAlg = z.enum(['RS256', 'ES256']);

export const TrustedIssuerSchema = named(
  'TrustedIssuer',
  z.object({
    id: Uuid,
    workspace_id: z.string(),
    iss: z.url(),
    aud: z.string(),
    jwks_uri: z.url(),
    algs: z.union([z.array(IssuerAlg), z.string()]),
    created_at: UnixSeconds,
  }),
);

export const CreateIssuerBody = z.object({
  iss: z.url(),
  aud: z.string().min(1),
  jwks_uri: z.url(),
  algs: z.array(IssuerAlg).min(1).default(['RS256']),
});
