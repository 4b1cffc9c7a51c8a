/**
 * POST /api/v1/sessions (spec 4.5): validate, resolve, guard, then seat or queue.
 * A re-POST with a live ticket is a poll (202) or, when claimable, the claim (201).
 */
import { createHash } from 'node:crypto';
import { ErrorCode } from '../../contract/errors.js';
import type { MintQueued, MintReady, MintSessionInput } from '../../contract/resources/session.js';
import { mergeConfig, toolsSettings } from '../../contract/validators/index.js';
import type { AuthContext } from '../auth/authenticate.js';
import { workspaceForKey, workspaceFromPath, type WorkspaceRow } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { Fleet, type BoxRecord } from '../fleet/fleet.js';
import { ApiError } from '../../server/api-error.js';
import { reply, type Reply } from '../http/router.js';
import type { Ticket, TicketNeeds } from '../queue/queue.js';
import type { ScriptRegistry } from '../scripts/registry.js';
import type { SigningKey } from '../signing/keys.js';
import { resolveAvatar, type ResolvedAvatar } from './avatar-resolution.js';
import { checkConcurrency, checkQuota, grantCap, MintRateGuard, quotaLeft } from './guards.js';
import type { SessionRuntime } from './runtime.js';
import { resolveTools, type ResolvedTools } from './tool-servers.js';
import {
  avatarSelection,
  checkCredentialFields,
  checkFields,
  checkWorkspaceNeeded,
  checkWorkspaceRules,
  dropUnsetGroups,
  type MintPlan,
} from './validate-mint.js';
import { tokenSql } from '../tokens/sql.js';

export interface MintDeps {
  ctx: EmulatorContext;
  rt: SessionRuntime;
  signing: () => SigningKey;
  guard: MintRateGuard;
  /** The loaded conversation scripts: the mint chooses one and freezes it with the session. */
  scripts: ScriptRegistry;
}

function mintWorkspace(
  ctx: EmulatorContext,
  auth: AuthContext,
  explicit: string | undefined,
): WorkspaceRow | null {
  if (auth.workspaceId) return workspaceForKey(ctx.db, auth, explicit);
  return explicit ? workspaceFromPath(ctx.db, auth, explicit) : null;
}

/**
 * spec 4.5 `protocol_versions`: the protocols the client offers (v1 when absent), highest
 * first. The seat may be on any live box that speaks one of them (spec 3: a mint waits only
 * with every seat occupied); 503 `protocol_unavailable` when no live box speaks any.
 */
function offeredProtocols(fleet: Fleet, offered: number[] | undefined): number[] {
  const protocols = [...new Set(offered ?? [1])].sort((a, b) => b - a);
  const spoken = new Set(fleet.liveBoxes().flatMap((b) => b.protocols));
  if (protocols.some((p) => spoken.has(p))) return protocols;
  throw new ApiError(503, ErrorCode.protocolUnavailable, {
    message: offered
      ? `no live renderer speaks protocol ${[...new Set(offered)].slice(0, 8).join(', ')}; omit protocol_versions for v1`
      : 'no live renderer speaks v1; send protocol_versions: [2] and connect to /v2/session',
    retryable: false,
  });
}

/** spec 7: fleet_busy (no box), protocol_unavailable, custom_avatar_unsupported / _unavailable. */
function fleetNeeds(rt: SessionRuntime, body: MintSessionInput, custom: boolean): TicketNeeds {
  if (rt.fleet.liveBoxes().length === 0) {
    throw new ApiError(503, ErrorCode.fleetBusy, {
      message: 'no box is registered; do not poll, retry later with a fresh mint',
      retryable: true,
    });
  }
  const protocols = offeredProtocols(rt.fleet, body.protocol_versions);
  if (custom) {
    const live = rt.fleet.liveBoxes();
    if (!live.some((b) => b.customAvatars)) {
      throw new ApiError(422, ErrorCode.customAvatarUnsupported, {
        message: 'no renderer supports custom avatars; do not retry',
        retryable: false,
      });
    }
    if (!live.some((b) => b.customAvatars && b.verified)) {
      throw new ApiError(503, ErrorCode.customAvatarUnavailable, {
        message:
          'no live box is verified for custom avatars; retry with backoff (stock personas usually work)',
        retryable: true,
      });
    }
  }
  const needs = { protocols, custom };
  if (!rt.fleet.liveBoxes().some((b) => Fleet.fits(b, needs))) {
    throw new ApiError(503, ErrorCode.protocolUnavailable, {
      message: `no live box that renders this avatar speaks protocol ${protocols.slice(0, 8).join(', ')}`,
      retryable: false,
    });
  }
  return needs;
}

function queued(rt: SessionRuntime, t: Ticket): Reply<MintQueued> {
  const v = rt.queue.view(t);
  const body: MintQueued = {
    status: 'queued',
    queue_ticket: t.id,
    position: v.position!,
    eta_seconds: v.eta_seconds!,
    retry_after: v.retry_after,
    state: t.state,
  };
  if (v.claim_deadline !== undefined) body.claim_deadline = v.claim_deadline;
  return reply(202, body, { 'Retry-After': String(v.retry_after) });
}

export async function mintSession(
  d: MintDeps,
  auth: AuthContext,
  sent: MintSessionInput,
): Promise<Reply<MintQueued | MintReady>> {
  const { ctx, rt } = d;
  const body = dropUnsetGroups(sent);
  checkCredentialFields(body, auth);
  const selection = avatarSelection(body);
  const plan: MintPlan = {
    selection,
    ...checkFields(body, { allowInsecureUrls: ctx.options.allowInsecureUrls }),
  };
  const ws = mintWorkspace(ctx, auth, body.workspace_id);
  checkWorkspaceNeeded(body, plan, ws);
  checkWorkspaceRules(body, plan, ws);
  const avatar = resolveAvatar(ctx, ws, plan);
  const tools = resolveTools(ctx, ws?.id ?? null, plan, avatar.tools);

  const scope = ws?.id ?? `user:${auth.userId}`;
  const planName = ws?.plan ?? 'free';
  const nowS = unixSeconds(ctx.clock);

  let ticket = body.queue_ticket ? rt.queue.get(body.queue_ticket) : undefined;
  if (ticket && ticket.scope !== scope) ticket = undefined;
  if (ticket) {
    rt.queue.touch(ticket);
    // A lapsed ticket may wait while a fitting seat is free: seat it now, in line order. Only
    // boxes with a free seat that fits are offered, so an ordinary poll costs nothing here.
    if (ticket.state === 'waiting') {
      const needs = ticket.needs;
      for (const b of rt.fleet.liveBoxes())
        if (rt.fleet.free(b) > 0 && Fleet.fits(b, needs)) rt.offerSeats(b, null);
    }
  } else {
    // spec 7: the guard counts fresh mints; polls with a live ticket are not mints.
    d.guard.check(auth.deviceId ?? auth.keyId);
  }
  const quota = quotaLeft(rt.st, rt.opts, planName, scope, nowS);
  checkQuota(quota, nowS);
  checkConcurrency(rt.liveCount(scope), rt.opts, planName, body.concurrency_cap);
  const needs = fleetNeeds(rt, body, avatar.custom);

  let box: BoxRecord | undefined | null;
  if (ticket) {
    if (ticket.state === 'waiting') return queued(rt, ticket);
    box = rt.claimReservation(rt.queue.claim(ticket));
  } else {
    // Line order (spec 3, issue 7 item 1): a fresh mint never takes a seat a fitting waiter is owed.
    box = rt.freeSeatAfterLine(needs);
    if (!box) {
      if (rt.queue.size >= rt.opts.queueMaxWaiters) {
        throw new ApiError(503, ErrorCode.fleetBusy, {
          message: 'the line is full past the wait horizon; do not poll',
          retryable: true,
        });
      }
      const t = rt.queue.admit({
        id: `qt_${ctx.ids.hex(16)}`,
        scope,
        workspaceId: ws?.id ?? null,
        needs,
        notify: plan.notify,
        wantsPosition:
          plan.notify !== null ||
          rt.webhooks.endpointsFor(ws?.id ?? null, 'queue.position').length > 0,
      });
      return queued(rt, t);
    }
  }
  if (!box)
    throw new ApiError(503, ErrorCode.fleetBusy, {
      message: 'the reserved box left; mint again',
      retryable: true,
    });
  return reply(
    201,
    await seat(d, auth, body, {
      plan,
      ws,
      avatar,
      tools,
      box,
      protocol: Fleet.protocolFor(box, ticket?.needs ?? needs) ?? 1,
      cap: grantCap(rt.opts, planName, plan.requestedCap, quota.left, box.maxCapSeconds),
      scope,
    }),
  );
}

interface Seating {
  plan: MintPlan;
  ws: WorkspaceRow | null;
  avatar: ResolvedAvatar;
  tools: ResolvedTools;
  box: BoxRecord;
  /** The highest offered protocol the chosen box speaks: the 201's `protocol_version`, the token's. */
  protocol: number;
  cap: number;
  scope: string;
}

/** Create the session on the seat: frozen snapshot, session token, seat token (spec 4.5). */
async function seat(
  d: MintDeps,
  auth: AuthContext,
  body: MintSessionInput,
  s: Seating,
): Promise<MintReady> {
  const { ctx, rt } = d;
  const { plan, avatar, box } = s;
  const id = ctx.ids.uuid();
  const seatToken = `seat_${ctx.ids.hex(24)}`;
  const tokenId = `stk_${ctx.ids.hex(12)}`;
  const nowS = unixSeconds(ctx.clock);
  const protocol = s.protocol;
  const join = (base: string | null, extra: string | null) =>
    extra ? (base ? `${base}\n\n${extra}` : extra) : base;
  const allowlist =
    auth.kind === 'publishable'
      ? (JSON.parse(
          (
            tokenSql(ctx.db).getApiKeysAllowedOriginsById.get(auth.keyId) as {
              allowed_origins: string | null;
            }
          ).allowed_origins ?? '[]',
        ) as string[])
      : (body.domain_allowlist ?? []);
  // spec 4.5: the mint freezes everything; later edits of the avatar or profile change only later mints.
  const snapshot = {
    id,
    workspace_id: s.ws?.id ?? null,
    box_id: box.id,
    avatar: {
      kind: avatar.custom ? 'custom' : 'stock',
      persona: avatar.persona,
      avatar_id: avatar.avatarId,
      version_id: avatar.versionId,
      voice_ref: avatar.voiceRef,
      language: avatar.language,
      media: avatar.media,
    },
    profile: avatar.profile,
    system_prompt: join(plan.context?.system_prompt ?? avatar.systemPrompt, plan.extraSystemPrompt),
    backstory: join(plan.context?.backstory ?? avatar.backstory, plan.extraBackstory),
    memory_block: plan.context?.memory_block ?? null,
    memory_id: plan.context?.memory_id ?? null,
    history: plan.context?.history ?? [],
    tools: s.tools.tools
      ? { ...s.tools.tools, ...toolsSettings(s.tools.tools), resolved: s.tools.names }
      : null,
    config: mergeConfig(plan.config, avatar.configJson),
    response_language: plan.responseLanguage,
    recording: plan.recording,
    session_logs: !plan.logsSilenced,
    domain_allowlist: allowlist,
    cap_seconds: s.cap,
    protocol,
    metadata: body.metadata ?? null,
  };
  // The token carries the tool names and settings; the definitions (MCP schemas can be
  // large) stay in the stored snapshot, where the box reads them (internal box API).
  const claims: Record<string, unknown> = { session: snapshot };
  // The conversation script is frozen with the rest (a later load or clear changes only
  // later mints); the box reads it over the box API (boxScript), not from the token.
  const script = d.scripts.choose({
    persona: avatar.persona,
    avatarId: avatar.avatarId,
    metadata: (body.metadata as Record<string, unknown> | undefined) ?? null,
  });
  // The agent object too: the gateway presents its `tok` to the hook (spec 6.2).
  const stored = {
    ...snapshot,
    script,
    agent: plan.agent ?? null,
    tools: s.tools.tools ? { ...snapshot.tools, definitions: s.tools.definitions } : null,
  };
  if (plan.agent) claims.agent = plan.agent;
  // Hold the seat and store the row before the first await: no other request may take the
  // seat, or pass the plan ceiling (which counts seated sessions), while the token is signed.
  rt.seated(id, box, s.cap, s.scope);
  rt.st.insert.run({
    id,
    workspace_id: s.ws?.id ?? null,
    scope_key: s.scope,
    api_token_id: auth.keyId,
    avatar_ref: avatar.versionId,
    voice_ref: avatar.voiceRef,
    persona: avatar.persona,
    session_token_id: tokenId,
    box_id: box.id,
    box_host: box.host,
    seat_token_hash: createHash('sha256').update(seatToken).digest(),
    snapshot_json: JSON.stringify(stored),
    cap_seconds: s.cap,
    recording: plan.recording ? 1 : 0,
    created_at: nowS,
  });
  let token: string;
  try {
    token = await d.signing().sign(claims, {
      nowSeconds: nowS,
      ttlSeconds: rt.opts.tokenTtlS,
      subject: id,
      audience: box.id,
      jti: tokenId,
    });
  } catch (err) {
    void rt.endSession(id, 'error');
    throw err;
  }
  const out: MintReady = {
    status: 'ready',
    session_id: id,
    connect_url: box.baseUrl,
    session_token: token,
    seat_token: seatToken,
    expires_at: nowS + rt.opts.tokenTtlS,
    cap_seconds: s.cap,
    profile: avatar.profile,
  };
  if (s.tools.names.length > 0) out.tools_resolved = s.tools.names;
  if (body.protocol_versions) out.protocol_version = protocol;
  return out;
}
