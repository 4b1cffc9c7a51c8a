/**
 * Which avatar a mint runs (spec 4.5 "Avatar selection"; per-field resolution session >
 * profile > version, spec 1). The avatars module resolves the selection, the profile and
 * the voice (src/emulator/avatars/resolve.ts); this adapts its answer to what the session
 * snapshot freezes.
 */
import type { ConfigGroup } from '../../contract/validators/config.js';
import type { ToolsObject } from '../../contract/validators/tools.js';
import type { WorkspaceRow } from '../auth/workspace.js';
import {
  resolveAvatar as resolveSelection,
  resolveProfile,
  resolveVoiceRef,
} from '../avatars/resolve.js';
import type { EmulatorContext } from '../context.js';
import { fail, type AvatarSelection } from './validate-mint.js';

export interface ProfileRef {
  id: string | null;
  hash_short: string | null;
  source: 'param' | 'default' | 'none';
}

/** The stored layers of the chosen avatar, before the session's own overrides. */
export interface ResolvedAvatar {
  /** A tenant avatar (not the stock catalog): needs a box that renders custom avatars (spec 7). */
  custom: boolean;
  persona: string | null;
  avatarId: string;
  /** The version id (the Session record's `avatar_ref`). */
  versionId: string;
  voiceRef: string | null;
  /** Profile text over the version's, field by field. */
  systemPrompt: string | null;
  backstory: string | null;
  /** Stored tools (profile `tools_json`, validated; null when none or malformed). */
  tools: ToolsObject | null;
  /** Profile config over version config. */
  configJson: ConfigGroup | null;
  profile: ProfileRef;
  language: string | null;
  media: { face: string | null; voice: string | null; idle: string | null; idle_status: string };
}

export function resolveAvatar(
  ctx: EmulatorContext,
  ws: WorkspaceRow | null,
  req: { selection: AvatarSelection; voiceRef: string | null; profileId: string | null },
): ResolvedAvatar {
  const sel = req.selection;
  const r = resolveSelection(ctx, {
    workspaceId: ws?.id ?? null,
    ...(sel.kind === 'persona' ? { persona: sel.persona } : {}),
    ...(sel.kind === 'avatar_ref' ? { avatar_ref: sel.versionId } : {}),
    ...(sel.kind === 'avatar_id'
      ? { avatar_id: sel.avatarId, ...(sel.versionId ? { avatar_version_id: sel.versionId } : {}) }
      : {}),
  });
  if (!r.ok) throw fail(r);
  const { avatar, version } = r.value;
  let profile = r.value.defaultProfile;
  if (req.profileId) {
    const p = resolveProfile(ctx, avatar.id, req.profileId);
    if (!p.ok) throw fail(p);
    profile = p.value;
  }
  let voiceRef: string | null = null;
  if (req.voiceRef) {
    const v = resolveVoiceRef(ctx, ws?.id ?? null, req.voiceRef);
    if (!v.ok) throw fail(v);
    voiceRef = v.value.version_id;
  }
  const p = profile.profile;
  const config = version.config || p?.config ? { ...version.config, ...p?.config } : null;
  return {
    custom: !avatar.stock,
    persona: version.persona,
    avatarId: avatar.id,
    versionId: version.id,
    voiceRef,
    systemPrompt: p?.system_prompt ?? version.system_prompt,
    backstory: p?.backstory ?? version.backstory,
    tools: p?.tools ?? null,
    configJson: config,
    profile: { id: p?.id ?? null, hash_short: p?.hash_short ?? null, source: profile.source },
    language: version.language,
    media: {
      face: version.face?.blob_key ?? null,
      voice: version.voice?.blob_key ?? null,
      idle: r.value.idle.blob_key,
      idle_status: r.value.idle.status,
    },
  };
}
