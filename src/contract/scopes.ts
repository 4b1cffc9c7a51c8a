/** OAuth-style scopes on keys (spec 5.3). `*` grants all. */
export const Scopes = [
  'sessions:write',
  'sessions:read',
  'session:connect',
  'generations:write',
  'avatars:read',
  'avatars:write',
  'transcripts:read',
  'workspaces:write',
  'webhooks:write',
  'user:read',
  'user:write',
  'admin:read',
  'admin:write',
] as const;

export type Scope = (typeof Scopes)[number];
export const WILDCARD = '*';

/**
 * A route's scope requirement: the key must hold any one of `anyOf` (or `*`).
 * Spec 4.9 names alternatives ("`avatars:write` (or `user:write`)").
 */
export interface ScopeRequirement {
  anyOf: readonly Scope[];
}

export function hasScope(granted: readonly string[], need: ScopeRequirement): boolean {
  if (granted.includes(WILDCARD)) return true;
  return need.anyOf.some((s) => granted.includes(s));
}

/** Publishable and device keys are locked to this scope (spec 5.2). */
export const CONNECT_ONLY: readonly Scope[] = ['session:connect'];
