/**
 * What a mint froze, read from the session token's `session` claim (spec 4.5: "the mint
 * freezes everything"). The box uses only this: later edits of the avatar or profile
 * never reach a running session. Missing or malformed fields fall back to the spec's
 * defaults (config group, spec 2) so an older token still works.
 */
import type { SessionClaims } from '../box/session-token.js';

export interface SessionSnapshot {
  id: string;
  boxId: string | null;
  avatar: {
    kind: 'stock' | 'custom';
    persona: string | null;
    avatarId: string | null;
    versionId: string | null;
    voiceRef: string | null;
    language: string | null;
    /** Blob keys of the version's media; fetched through the internal box API (spec 4.7). */
    media: {
      face: string | null;
      voice: string | null;
      idle: string | null;
      idle_status: string | null;
    };
  };
  systemPrompt: string | null;
  backstory: string | null;
  memoryBlock: string | null;
  history: { role: 'user' | 'assistant'; content: string }[];
  config: { greeting_enabled: boolean; greeting_hold_ms: number; render: boolean };
  responseLanguage: string | null;
  recording: boolean;
  /** false: `observability: false` silenced session-tagged logs (spec 4.5). */
  sessionLogs: boolean;
  capSeconds: number;
  protocol: number;
  agent: Record<string, unknown> | null;
  /** Names of the tools the mint resolved (spec 4.5 `tools_resolved`); their definitions come from the control plane. */
  toolNames: string[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function readSnapshot(claims: SessionClaims): SessionSnapshot {
  const s = obj(claims.session);
  const av = obj(s.avatar);
  const media = obj(av.media);
  const cfg = obj(s.config);
  const history = Array.isArray(s.history)
    ? (s.history as unknown[]).flatMap((m) => {
        const o = obj(m);
        const role = o.role === 'assistant' ? 'assistant' : o.role === 'user' ? 'user' : null;
        return role && typeof o.content === 'string' ? [{ role, content: o.content } as const] : [];
      })
    : [];
  return {
    id: claims.sub,
    boxId: str(s.box_id),
    avatar: {
      kind: av.kind === 'custom' ? 'custom' : 'stock',
      persona: str(av.persona),
      avatarId: str(av.avatar_id),
      versionId: str(av.version_id),
      voiceRef: str(av.voice_ref),
      language: str(av.language),
      media: {
        face: str(media.face),
        voice: str(media.voice),
        idle: str(media.idle),
        idle_status: str(media.idle_status),
      },
    },
    systemPrompt: str(s.system_prompt),
    backstory: str(s.backstory),
    memoryBlock: str(s.memory_block),
    history,
    config: {
      greeting_enabled: typeof cfg.greeting_enabled === 'boolean' ? cfg.greeting_enabled : true,
      greeting_hold_ms: typeof cfg.greeting_hold_ms === 'number' ? cfg.greeting_hold_ms : 2000,
      render: typeof cfg.render === 'boolean' ? cfg.render : true,
    },
    responseLanguage: str(s.response_language),
    recording: s.recording === true,
    sessionLogs: s.session_logs !== false,
    capSeconds: typeof s.cap_seconds === 'number' ? s.cap_seconds : 300,
    protocol: typeof s.protocol === 'number' ? s.protocol : 1,
    agent: claims.agent ?? null,
    toolNames: Array.isArray(obj(s.tools).resolved)
      ? ((obj(s.tools).resolved as unknown[]).filter((n) => typeof n === 'string') as string[])
      : [],
  };
}
