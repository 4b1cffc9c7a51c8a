/**
 * Which avatar a mint runs (spec 4.5 "Avatar selection", per-field resolution session >
 * profile > version). Stock personas come from fixtures/personas; custom avatars go
 * through `resolveCustomAvatar`, the one switch-over point to the avatars module.
 */
import { ErrorCode } from '../../contract/errors.js';
import type { ConfigGroup } from '../../contract/validators/config.js';
import type { WorkspaceRow } from '../auth/workspace.js';
import type { EmulatorContext } from '../context.js';
import { loadPersonas, type PersonaCatalog } from '../gallery/personas.js';
import { ApiError } from '../http/api-error.js';
import type { AvatarSelection } from './validate-mint.js';

export interface ProfileRef {
  id: string | null;
  hash_short: string | null;
  source: 'param' | 'default' | 'none';
}

/** The stored layers of the chosen avatar, before the session's own overrides. */
export interface ResolvedAvatar {
  custom: boolean;
  persona: string | null;
  avatarId: string | null;
  /** The version id (the Session record's `avatar_ref`); null for a stock persona. */
  versionId: string | null;
  voiceRef: string | null;
  /** Profile text over the version's, field by field (already resolved profile > version). */
  systemPrompt: string | null;
  backstory: string | null;
  toolsJson: unknown;
  configJson: ConfigGroup | null;
  profile: ProfileRef;
}

export interface CustomAvatarRequest {
  selection: Exclude<AvatarSelection, { kind: 'persona' }>;
  voiceRef: string | null;
  profileId: string | null;
}

const catalogs = new WeakMap<EmulatorContext, PersonaCatalog>();

function personas(ctx: EmulatorContext): PersonaCatalog {
  let c = catalogs.get(ctx);
  if (!c) catalogs.set(ctx, (c = loadPersonas(ctx.fixturesDir)));
  return c;
}

export function resolveAvatar(
  ctx: EmulatorContext,
  ws: WorkspaceRow | null,
  req: { selection: AvatarSelection; voiceRef: string | null; profileId: string | null },
): ResolvedAvatar {
  const sel = req.selection;
  if (sel.kind === 'persona') {
    const p = personas(ctx).get(sel.persona);
    if (!p) throw new ApiError(400, ErrorCode.invalidRequest, { message: `unknown persona ${sel.persona}`, detail: 'persona: unknown persona key' });
    if (req.profileId) throw new ApiError(400, ErrorCode.profileMismatch, { message: 'stock personas have no profiles' });
    return {
      custom: false,
      persona: p.id,
      avatarId: null,
      versionId: null,
      voiceRef: req.voiceRef,
      systemPrompt: p.systemPrompt,
      backstory: p.blurb,
      toolsJson: null,
      configJson: null,
      profile: { id: null, hash_short: null, source: 'none' },
    };
  }
  if (!ws) throw new ApiError(400, ErrorCode.workspaceIdRequired, { message: 'custom avatars need a workspace: pass workspace_id' });
  return resolveCustomAvatar(ctx, ws, { selection: sel, voiceRef: req.voiceRef, profileId: req.profileId });
}

/**
 * Custom avatars (issue 3 owns avatars, versions, voices and profiles). Until its resolver
 * lands, every custom reference is answered as not published.
 */
export function resolveCustomAvatar(_ctx: EmulatorContext, _ws: WorkspaceRow, req: CustomAvatarRequest): ResolvedAvatar {
  if (req.selection.kind === 'avatar_ref') {
    throw new ApiError(400, ErrorCode.versionNotPublished, { message: `avatar version ${req.selection.versionId} is not published` });
  }
  throw new ApiError(400, ErrorCode.avatarNotPublished, { message: `avatar ${req.selection.avatarId} has no published version` });
}
