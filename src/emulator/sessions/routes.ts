/**
 * Session routes of spec 4.5: mint, get, transcript, delete (erasure), heartbeat, release.
 */
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from 'hono';
import { ErrorCode } from '../../contract/errors.js';
import {
  deleteSession,
  getSession,
  getTranscript,
  heartbeatSession,
  mintSession as mintOp,
  releaseSession,
} from '../../contract/operations/sessions.js';
import { authenticate, type AuthContext } from '../auth/authenticate.js';
import { canAccessWorkspace, type WorkspaceRow } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import type { ScriptRegistry } from '../scripts/registry.js';
import type { SigningKey } from '../signing/keys.js';
import { boxLog } from '../fleet/box-calls.js';
import { eraseOnBox } from '../fleet/box-captures.js';
import { MintRateGuard } from './guards.js';
import { mintSession } from './mint.js';
import { operatorLog } from '../operator/log.js';
import { sessionRuntime } from './runtime.js';
import { getSessionRow, isLive, toSessionRecord, type SessionRow } from './store.js';
import { workspaceSql } from '../workspaces/sql.js';
import { toolSql } from '../tools/sql.js';
import { sameSecret } from '../../server/safe-equal.js';

export function registerSessionRoutes(
  app: App,
  ctx: EmulatorContext,
  signing: SigningKey,
  scripts: ScriptRegistry,
): void {
  const rt = sessionRuntime(ctx);
  const guard = new MintRateGuard(ctx.clock, () => rt.opts.mintRatePerMinute);
  const deps = { ctx, rt, signing: () => signing, guard, scripts };

  /**
   * spec 1: sessions belong to a workspace and a workspace-bound key is confined to it. A
   * workspace-less session (a persona mint by an unbound key without `workspace_id`) is
   * seen by the unbound keys of the user who minted it, never by a bound key (docs/fidelity.md).
   */
  const canSee = (auth: AuthContext, row: SessionRow): boolean => {
    if (!row.workspace_id) return !auth.workspaceId && row.scope_key === `user:${auth.userId}`;
    const ws = workspaceSql(ctx.db).getWorkspacesById.get(row.workspace_id) as
      | WorkspaceRow
      | undefined;
    return !!ws && canAccessWorkspace(auth, ws);
  };
  const notFound = (id: string) =>
    new ApiError(404, ErrorCode.notFound, { message: `session ${id} not found` });
  /** The session, 404 when there is none, 403 when it is outside the key's reach (as the transcript, spec 4.5). */
  const visible = (auth: AuthContext, id: string): SessionRow => {
    const row = getSessionRow(rt.st, id);
    if (!row) throw notFound(id);
    if (!canSee(auth, row))
      throw new ApiError(403, ErrorCode.forbidden, {
        message: `session ${id} belongs to another workspace`,
      });
    return row;
  };

  const log = operatorLog(ctx);
  implement(app, ctx, mintOp, async ({ auth, body, c }) => {
    const answer = await mintSession(deps, auth, body);
    // The operator log names the session (or ticket) a mint made; its path does not.
    const made = answer.body as { session_id?: string; queue_ticket?: string };
    log.concerns(c.req.raw, { session: made.session_id, ticket: made.queue_ticket });
    return answer;
  });

  implement(app, ctx, getSession, ({ auth, params }) =>
    toSessionRecord(visible(auth, params.sessionId)),
  );

  // spec 4.5: own scope, secret keys only, 403 across workspaces.
  implement(app, ctx, getTranscript, async ({ auth, params }) => {
    if (auth.kind !== 'secret')
      throw new ApiError(403, ErrorCode.forbidden, { message: 'transcripts need a secret key' });
    const row = visible(auth, params.sessionId);
    if (row.status === 'deleted')
      return {
        session_id: row.id,
        source: 'store' as const,
        turns: [],
        count: 0,
        deleted: true as const,
      };
    const stored = rt.st.turns.all(row.id) as {
      seq: number;
      user_text: string;
      reply_text: string;
    }[];
    // Ours (docs/tools.md): the session's tool calls from the ledger, when it has any.
    const calls = toolSql(ctx.db).listSessionToolCallsBySessionId.all(row.id) as {
      call_id: string;
      tool: string;
      source: string | null;
      ok: number | null;
      ms: number | null;
      created_at: number;
    }[];
    const toolCalls = calls.length
      ? { tool_calls: calls.map((c) => ({ ...c, ok: c.ok === 1 })) }
      : {};
    // spec 4.5: `live` is rebuilt from the box's own log for a session the store lacks
    // (still live, or turns the box could not report); otherwise the store answers.
    // `source` names where the turns came from: a log the box could not give (gone,
    // unreachable, failing) or one behind the store leaves the stored turns, `store`.
    if (isLive(row) || stored.length === 0) {
      const log = await boxLog(rt.fleet.get(row.box_id), row.id);
      const fromLog =
        log !== null && (isLive(row) ? log.length >= stored.length : log.length > stored.length);
      if (fromLog)
        return {
          session_id: row.id,
          source: 'live' as const,
          turns: log,
          count: log.length,
          ...toolCalls,
        };
    }
    return {
      session_id: row.id,
      source: 'store' as const,
      turns: stored,
      count: stored.length,
      ...toolCalls,
    };
  });

  // spec 3: ended -> deleted erases turns, tool records, agent state and captured media; idempotent.
  implement(app, ctx, deleteSession, ({ auth, params }) => {
    const row = visible(auth, params.sessionId);
    if (isLive(row))
      throw new ApiError(409, ErrorCode.sessionLive, {
        message: 'the session is still live; release it first',
      });
    if (row.status !== 'deleted') {
      ctx.db.transaction(() => {
        rt.st.eraseTurns.run(row.id);
        rt.st.eraseToolCalls.run(row.id);
        rt.st.anonymize.run(unixSeconds(ctx.clock), row.id);
      })();
      rmSync(join(ctx.blobDir, 'captures', row.id), { recursive: true, force: true });
      // A box in another process keeps its captures in its own --data dir (docs/edge.md "Recording").
      if (row.recording) eraseOnBox(rt.fleet.get(row.box_id), row.id);
    }
    return reply(204);
  });

  /** spec 4.5: the seat_token in the body, when present, is the sole credential. */
  const seatCaller = (c: Context, id: string, seatToken: string | undefined): SessionRow => {
    if (seatToken === undefined)
      return visible(authenticate(ctx.db, c, { anyOf: ['sessions:write'] }), id);
    const row = getSessionRow(rt.st, id);
    const given = createHash('sha256').update(seatToken).digest();
    if (!row || !row.seat_token_hash || !sameSecret(given, row.seat_token_hash)) {
      throw new ApiError(401, ErrorCode.unauthorized, {
        message: 'invalid seat_token for this session',
      });
    }
    return row;
  };

  implement(app, ctx, heartbeatSession, ({ c, params, body }) => {
    const row = seatCaller(c, params.sessionId, body.seat_token);
    if (!isLive(row))
      throw new ApiError(409, ErrorCode.conflict, {
        message: 'the session has ended; its seat is gone',
      });
    rt.heartbeat(row.id);
    return { ok: true as const };
  });

  // The release answers once the box has ended the session: its captures are final then.
  implement(app, ctx, releaseSession, async ({ c, params, body }) => {
    const row = seatCaller(c, params.sessionId, body.seat_token);
    await rt.endSession(row.id, 'released');
    return { ok: true as const };
  });
}
