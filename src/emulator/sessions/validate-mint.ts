/**
 * Validation of a mint body (spec 4.5, 7 "Session mint" and "Tools at mint", 8), in the
 * order the emulator checks (ours; spec 7 names codes, not their order):
 *   1. credential: secret-key-only fields (403 each, `notify_not_allowed` 400);
 *   2. avatar selection (exactly one of avatar_id, avatar_ref, persona);
 *   3. field by field: context, extras, config, agent, tools, language, cap, capture, notify;
 *   4. zero-data-retention and recording eligibility (need the workspace).
 */
import { ErrorCode } from '../../contract/errors.js';
import { charCount, Limits } from '../../contract/limits.js';
import type { MintSessionInput } from '../../contract/resources/session.js';
import { validateAgent, type AgentObject } from '../../contract/validators/agent.js';
import { validateConfig, type ConfigGroup } from '../../contract/validators/config.js';
import { isAllowedUrl, liftedByInsecureUrls } from '../../contract/validators/https-url.js';
import type { ValidationFailure, Validation } from '../../contract/validators/result.js';
import {
  checkAgentPayload,
  validateTools,
  type ToolsObject,
} from '../../contract/validators/tools.js';
import type { AuthContext } from '../auth/authenticate.js';
import type { WorkspaceRow } from '../auth/workspace.js';
import { ApiError } from '../../server/api-error.js';
import type { NotifyTarget } from '../queue/queue.js';

export type AvatarSelection =
  | { kind: 'persona'; persona: string }
  | { kind: 'avatar_id'; avatarId: string; versionId: string | null }
  | { kind: 'avatar_ref'; versionId: string };

export interface MintContextInput {
  system_prompt?: string;
  backstory?: string;
  memory_block?: string;
  memory_id?: string;
  history?: { role: string; content: string }[];
}

export interface MintPlan {
  selection: AvatarSelection;
  voiceRef: string | null;
  profileId: string | null;
  context: MintContextInput | null;
  extraSystemPrompt: string | null;
  extraBackstory: string | null;
  tools: ToolsObject | null;
  extraTools: ToolsObject | null;
  agent: AgentObject | null;
  config: ConfigGroup;
  responseLanguage: string | null;
  requestedCap: number | null;
  /** Raw capture opted in (spec 4.5 recording/observability). */
  recording: boolean;
  /** `observability: false` silences session-tagged logs. */
  logsSilenced: boolean;
  notify: NotifyTarget | null;
}

export const fail = (f: ValidationFailure): ApiError =>
  new ApiError(f.status, f.error, { message: f.message, detail: f.detail });

function must<T>(v: Validation<T>): T {
  if (!v.ok) throw fail(v);
  return v.value;
}

const forbid = (code: string, message: string) => new ApiError(403, code, { message });
const bad = (code: string, message: string, detail?: string) =>
  new ApiError(400, code, { message, detail });

/**
 * spec 2: `{}`, `{key: null}` and an absent config are identical, so a config that sets
 * nothing is dropped before any check (a publishable key may send it). Ours, by the same
 * rule: a `context` of `null` or `{}` overrides nothing and is dropped too (docs/fidelity.md).
 */
export function dropUnsetGroups(b: MintSessionInput): MintSessionInput {
  const out = { ...b };
  if (b.config !== undefined) {
    const c = validateConfig(b.config, 'session');
    if (c.ok && Object.keys(c.value).length === 0) delete out.config;
  }
  if (b.context === null || (b.context !== undefined && Object.keys(b.context).length === 0))
    delete out.context;
  return out;
}

/** spec 5.9 and 7: what only a secret key may send. */
export function checkCredentialFields(b: MintSessionInput, auth: AuthContext): void {
  if (auth.kind === 'secret') return;
  if (b.avatar_ref !== undefined || b.voice_ref !== undefined || b.avatar_id !== undefined) {
    throw forbid(
      ErrorCode.customAvatarNotAllowed,
      'custom avatars need a secret key; use a stock persona',
    );
  }
  if (b.avatar_version_id !== undefined)
    throw forbid(ErrorCode.avatarVersionPinNotAllowed, 'avatar_version_id needs a secret key');
  if (b.profile_id !== undefined)
    throw forbid(ErrorCode.profilePinNotAllowed, 'profile_id needs a secret key');
  const behaviour = [
    'tools',
    'extra_tools',
    'context',
    'config',
    'extra_system_prompt',
    'extra_backstory',
    'agent',
  ] as const;
  const sent = behaviour.find((k) => b[k] !== undefined);
  if (sent) throw forbid(ErrorCode.toolsContextNotAllowed, `${sent} needs a secret key`);
  if (b.session_cap_seconds !== undefined)
    throw forbid(ErrorCode.sessionCapNotAllowed, 'session_cap_seconds needs a secret key');
  if (b.notify !== undefined) throw bad(ErrorCode.notifyNotAllowed, 'notify needs a secret key');
}

/** spec 4.5: exactly one of avatar_id, avatar_ref, persona; avatar_version_id only with avatar_id. */
export function avatarSelection(b: MintSessionInput): AvatarSelection {
  if (b.avatar_ref !== undefined && b.avatar_id !== undefined) {
    throw bad(ErrorCode.avatarRefAvatarIdExclusive, 'send avatar_ref or avatar_id, not both');
  }
  if (b.avatar_ref !== undefined && b.persona !== undefined) {
    throw bad(ErrorCode.avatarRefPersonaExclusive, 'send avatar_ref or persona, not both');
  }
  if (b.avatar_id !== undefined && b.persona !== undefined) {
    // Ours: spec 7 names two codes; a persona is exclusive with either avatar reference (docs/fidelity.md).
    throw bad(
      ErrorCode.avatarRefPersonaExclusive,
      'send avatar_id or persona, not both',
      'avatar_id: exclusive with persona',
    );
  }
  if (b.avatar_version_id !== undefined && b.avatar_id === undefined) {
    throw bad(
      ErrorCode.invalidRequest,
      'avatar_version_id pins a version of avatar_id',
      'avatar_version_id: needs avatar_id',
    );
  }
  if (b.persona !== undefined) return { kind: 'persona', persona: b.persona };
  if (b.avatar_id !== undefined)
    return { kind: 'avatar_id', avatarId: b.avatar_id, versionId: b.avatar_version_id ?? null };
  if (b.avatar_ref !== undefined) return { kind: 'avatar_ref', versionId: b.avatar_ref };
  throw bad(
    ErrorCode.invalidRequest,
    'one of persona, avatar_id or avatar_ref is required',
    'persona: required',
  );
}

/** Characters (code points, spec 8 "chars") of an optional text; 0 when absent. */
const chars = (s: string | null | undefined) => (s ? charCount(s) : 0);
const tooLong = (field: string, max: number) =>
  bad(
    ErrorCode.invalidRequest,
    `${field} is over ${max} characters`,
    `${field}: at most ${max} characters`,
  );

function checkContext(ctx: MintSessionInput['context']): MintContextInput | null {
  if (!ctx) return null;
  const sp = ctx.system_prompt;
  if (
    sp !== undefined &&
    (typeof sp !== 'string' || charCount(sp) > Limits.contextSystemPromptChars)
  ) {
    throw bad(
      ErrorCode.invalidContextSystemPrompt,
      `context.system_prompt must be a string of at most ${Limits.contextSystemPromptChars} characters`,
    );
  }
  if (chars(ctx.backstory) > Limits.contextBackstoryChars)
    throw tooLong('context.backstory', Limits.contextBackstoryChars);
  if (chars(ctx.memory_block) > Limits.contextMemoryBlockChars)
    throw tooLong('context.memory_block', Limits.contextMemoryBlockChars);
  if (ctx.history) {
    if (ctx.history.length > Limits.contextHistoryMessages) {
      throw bad(
        ErrorCode.invalidRequest,
        `context.history holds at most ${Limits.contextHistoryMessages} messages`,
        'context.history: too many messages',
      );
    }
    if (Buffer.byteLength(JSON.stringify(ctx.history)) > Limits.contextHistoryBytes) {
      throw bad(
        ErrorCode.invalidRequest,
        `context.history is over ${Limits.contextHistoryBytes} bytes`,
        'context.history: too large',
      );
    }
  }
  return ctx as MintContextInput;
}

/** BCP-47 tag (`en`, `pt-BR`, `zh-Hant-TW`) or a display name (`Portuguese`, `Chinese (Traditional)`). */
const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const DISPLAY_NAME = /^\p{L}[\p{L} ()'-]{1,63}$/u;

/**
 * Free-form fields nest at most this deep (ours). Deeper JSON would overflow the stack of
 * JSON.stringify and of the recursive validators (a 500), so it is refused first, with the
 * field's own code where that code is certainly true: 512 levels take over 1,024 bytes, so
 * `config_too_large` and `agent_claim_too_large` hold, and no input_schema is within depth 4.
 */
export const MAX_NESTING = 512;

/** Path to the first value nested past `limit` containers, without recursion; null when none is. */
export function pathPastNesting(value: unknown, limit: number): (string | number)[] | null {
  interface Node {
    v: unknown;
    depth: number;
    key: string | number | null;
    parent: Node | null;
  }
  const stack: Node[] = [{ v: value, depth: 0, key: null, parent: null }];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.v === null || typeof n.v !== 'object') continue;
    if (n.depth >= limit) {
      const path: (string | number)[] = [];
      for (let p: Node | null = n; p && p.key !== null; p = p.parent) path.unshift(p.key);
      return path;
    }
    if (Array.isArray(n.v))
      n.v.forEach((v, i) => stack.push({ v, depth: n.depth + 1, key: i, parent: n }));
    else
      for (const [k, v] of Object.entries(n.v))
        stack.push({ v, depth: n.depth + 1, key: k, parent: n });
  }
  return null;
}

function checkNesting(b: MintSessionInput): void {
  const deep = (field: string, path: (string | number)[]) =>
    bad(
      ErrorCode.invalidRequest,
      `${field} is nested deeper than ${MAX_NESTING} levels`,
      `${[field, ...path.slice(0, 3)].join('.')}: nested too deeply`,
    );
  let p = pathPastNesting(b.config, MAX_NESTING);
  if (p)
    throw new ApiError(400, ErrorCode.invalidConfig, {
      message: 'config is over 1024 serialized bytes',
      detail: 'config_too_large',
    });
  p = pathPastNesting(b.agent, MAX_NESTING);
  if (p) throw bad(ErrorCode.agentClaimTooLarge, 'agent is over 1024 serialized bytes');
  for (const field of ['tools', 'extra_tools'] as const) {
    p = pathPastNesting(b[field], MAX_NESTING);
    if (!p) continue;
    const tool =
      p[0] === 'inline' && typeof p[1] === 'number'
        ? (b[field] as { inline: { name?: unknown }[] }).inline[p[1]]?.name
        : undefined;
    if (p[2] === 'input_schema' && typeof tool === 'string')
      throw bad(`schema_too_deep:${tool}`, `input_schema of ${tool} is nested too deeply`);
    throw deep(field, p);
  }
  for (const field of ['context', 'metadata'] as const) {
    p = pathPastNesting(b[field], MAX_NESTING);
    if (p) throw deep(field, p);
  }
}

export function checkFields(
  b: MintSessionInput,
  opts: { allowInsecureUrls: boolean },
): Omit<MintPlan, 'selection'> {
  checkNesting(b);
  const context = checkContext(b.context);
  const es = b.extra_system_prompt ?? null;
  const eb = b.extra_backstory ?? null;
  if (chars(es) > Limits.extraPromptChars)
    throw tooLong('extra_system_prompt', Limits.extraPromptChars);
  if (chars(eb) > Limits.extraPromptChars)
    throw tooLong('extra_backstory', Limits.extraPromptChars);
  if (chars(es) + chars(eb) > Limits.extrasCombinedChars) {
    throw bad(
      ErrorCode.invalidRequest,
      `extras are over ${Limits.extrasCombinedChars} characters combined`,
      `extra_backstory: extras at most ${Limits.extrasCombinedChars} characters combined`,
    );
  }
  const config = must(validateConfig(b.config, 'session'));
  const agent = must(validateAgent(b.agent, { allowInsecure: opts.allowInsecureUrls }));
  const hook = agent?.hook ?? null;
  const tools =
    b.tools === undefined
      ? null
      : must(validateTools(b.tools, { field: 'tools', agentHook: hook }));
  const extraTools =
    b.extra_tools === undefined
      ? null
      : must(validateTools(b.extra_tools, { field: 'extra_tools', agentHook: hook }));
  must(
    checkAgentPayload(
      b.tools === undefined && b.extra_tools === undefined
        ? null
        : [b.tools ?? null, b.extra_tools ?? null],
      b.context ?? null,
    ),
  );

  let responseLanguage: string | null = null;
  if (b.response_language !== undefined && b.response_language !== null) {
    const l = b.response_language;
    if (typeof l !== 'string' || !(BCP47.test(l) || DISPLAY_NAME.test(l))) {
      throw bad(
        ErrorCode.invalidResponseLanguage,
        'response_language must be a BCP-47 tag or a language name',
      );
    }
    responseLanguage = l;
  }
  let requestedCap: number | null = null;
  if (b.session_cap_seconds !== undefined) {
    const c = b.session_cap_seconds;
    if (
      typeof c !== 'number' ||
      !Number.isInteger(c) ||
      c < Limits.sessionCapMinSeconds ||
      c > Limits.sessionCapMaxSeconds
    ) {
      throw bad(
        ErrorCode.invalidSessionCapSeconds,
        `session_cap_seconds must be an integer from ${Limits.sessionCapMinSeconds} to ${Limits.sessionCapMaxSeconds}`,
      );
    }
    requestedCap = c;
  }
  if (b.recording !== undefined && typeof b.recording !== 'boolean')
    throw bad(ErrorCode.invalidRecording, 'recording must be a boolean');
  if (b.observability !== undefined && typeof b.observability !== 'boolean') {
    throw bad(ErrorCode.invalidObservability, 'observability must be a boolean');
  }
  // spec 4.5: when both are sent `recording` decides capture; observability:true alone means recording.
  const recording = b.recording !== undefined ? b.recording : b.observability === true;
  const logsSilenced = b.observability === false;

  let notify: NotifyTarget | null = null;
  if (b.notify !== undefined) {
    const n = b.notify as { url?: unknown; secret?: unknown } | null;
    if (!n || typeof n !== 'object' || Array.isArray(n) || typeof n.url !== 'string') {
      throw bad(ErrorCode.invalidNotifyUrl, 'notify must be { url, secret? } with an https url');
    }
    if (n.url.length > 2048)
      throw bad(ErrorCode.invalidNotifyUrl, 'notify.url must be at most 2048 characters');
    if (!isAllowedUrl(n.url, opts.allowInsecureUrls))
      throw bad(
        ErrorCode.invalidNotifyUrl,
        liftedByInsecureUrls('notify.url must be an https URL'),
      );
    if (n.secret !== undefined && typeof n.secret !== 'string') {
      throw bad(
        ErrorCode.invalidRequest,
        'notify.secret must be a string',
        'notify.secret: expected a string',
      );
    }
    notify = n.secret ? { url: n.url, secret: n.secret } : { url: n.url };
  }
  return {
    voiceRef: b.voice_ref ?? null,
    profileId: b.profile_id ?? null,
    context,
    extraSystemPrompt: es,
    extraBackstory: eb,
    tools,
    extraTools,
    agent,
    config,
    responseLanguage,
    requestedCap,
    recording,
    logsSilenced,
    notify,
  };
}

/**
 * Mint fields that need a workspace: they name or act for something a workspace owns (its
 * avatars and voices, its tool servers and tenant hook, its memory, its capture retention).
 * Ours: spec 5.2 names "mint with tools"; one rule covers them all (docs/fidelity.md).
 */
const NEEDS_WORKSPACE: [field: string, sent: (b: MintSessionInput, plan: MintPlan) => boolean][] = [
  ['avatar_id', (b) => b.avatar_id !== undefined],
  ['avatar_ref', (b) => b.avatar_ref !== undefined],
  ['voice_ref', (b) => b.voice_ref !== undefined],
  ['tools', (b) => b.tools !== undefined],
  ['extra_tools', (b) => b.extra_tools !== undefined],
  ['agent', (b) => b.agent !== undefined],
  ['context.memory_id', (b) => b.context?.memory_id !== undefined],
  ['recording', (_b, plan) => plan.recording],
];

/**
 * spec 5.2: a key that is not workspace-bound passes `workspace_id` where a workspace is
 * needed, else 400 `workspace_id_required`, whichever field needs it.
 */
export function checkWorkspaceNeeded(
  b: MintSessionInput,
  plan: MintPlan,
  ws: WorkspaceRow | null,
): void {
  if (ws) return;
  const needing = NEEDS_WORKSPACE.find(([, sent]) => sent(b, plan));
  if (!needing) return;
  const field =
    needing[0] === 'recording' && b.recording === undefined ? 'observability' : needing[0];
  throw bad(
    ErrorCode.workspaceIdRequired,
    `${field} needs a workspace: this key is not workspace-bound, so pass workspace_id`,
    `${field}: needs workspace_id`,
  );
}

/** spec 7: zero-data-retention workspaces and recording eligibility. */
export function checkWorkspaceRules(
  b: MintSessionInput,
  plan: MintPlan,
  ws: WorkspaceRow | null,
): void {
  const zdr = ws?.zdr === 1;
  if (zdr && b.context?.memory_id !== undefined) {
    throw bad(
      ErrorCode.zdrMemoryUnavailable,
      'context.memory_id is unavailable on zero-data-retention workspaces',
    );
  }
  const behaviour =
    b.tools !== undefined ||
    b.extra_tools !== undefined ||
    b.context !== undefined ||
    b.extra_system_prompt !== undefined ||
    b.extra_backstory !== undefined;
  if (zdr && behaviour)
    throw bad(
      ErrorCode.zdrToolsUnavailable,
      'tools, context and extras are unavailable on zero-data-retention workspaces',
    );
  if (plan.recording) {
    const features = ws ? (JSON.parse(ws.features) as string[]) : [];
    if (!ws || ws.plan === 'demo' || zdr || features.includes('recording_disabled')) {
      throw forbid(ErrorCode.recordingNotAllowed, 'recording is not available for this workspace');
    }
  }
}
