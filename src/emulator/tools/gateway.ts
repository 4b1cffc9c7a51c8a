/**
 * The tool gateway (spec 6.2 steps 3, 7, 8; 6.3 tool webhooks; 7 wire-level tool errors),
 * on the control plane, reached by the box over the internal box API. It forwards a call
 * to the tenant hook (`Authorization: Bearer <tok>`, envelope `{ v, op, conv, sid, ts, ... }`)
 * or to an MCP server (`tools/call` with `_meta` `svc/conv`, `svc/sid`, `svc/history`),
 * keeps the (session, idem) ledger and replays a stored answer byte for byte without
 * spending budget, counts the `max_calls` budget, disables the session's tool channel after
 * a 4xx or three consecutive 5xx/transport failures, retries an idempotent tool once on a
 * transport error, and bounds every call by the tool's `timeout_ms` on the injected clock.
 * Every answer is HTTP 200: `{ ok: true, status: done, result }` or `{ ok: false, error, message }`.
 * It also sends the hook ops the control plane sees (session_start on connect,
 * turn_committed per stored turn, session_end at the end).
 */
import { Agent, request } from 'undici';
import type { ToolCallRequest, ToolWireError } from '../../contract/resources/tools.js';
import { unixSeconds } from '../clock.js';
import type { EmulatorContext } from '../context.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { getSessionRow } from '../sessions/store.js';
import type { ResolvedToolDef } from '../sessions/tool-servers.js';
import { callMcpTool, errorLine } from './mcp-client.js';
import { mcpRegistry, rowAuth } from './registry.js';
import { toolSql } from './sql.js';

/** spec 6.3: tool webhooks are tried at once, then after 1, 2 and 4 s of backoff (offsets 0, 1, 3, 7 s). */
export const TOOL_WEBHOOK_DELAYS_MS = [0, 1000, 3000, 7000];
/** spec 6.2 step 8: three consecutive 5xx or transport failures disable the channel. */
export const FAILURES_TO_DISABLE = 3;
/** spec 8: an MCP result is at most 8 KB; `structured` text is truncated at 800 chars. */
export const MCP_RESULT_BYTES = 8192;
export const STRUCTURED_CHARS = 800;
/** Hook ops other than tool_call wait at most this long (ours). */
export const HOOK_OP_TIMEOUT_MS = 5000;
/** spec 8: the tool-call ledger is kept 30 days. */
export const LEDGER_RETENTION_S = 30 * 24 * 3600;

export interface SessionTools {
  sessionId: string;
  workspaceId: string | null;
  agent: { hook?: string; tok?: string; conv?: string; v?: unknown } | null;
  definitions: ResolvedToolDef[];
  maxCalls: number;
  history: boolean;
}

export type ToolCallInput = ToolCallRequest;

/** What a failed attempt was, for the channel rule. */
type Failure = { kind: '4xx' | '5xx' | 'transport' | 'timeout' | 'bad_answer'; message: string };

class CallFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

export function readSessionTools(ctx: EmulatorContext, sessionId: string): SessionTools | null {
  const rt = sessionRuntime(ctx);
  const row = getSessionRow(rt.st, sessionId);
  if (!row?.snapshot_json) return null;
  const snap = JSON.parse(row.snapshot_json) as {
    agent?: SessionTools['agent'];
    tools?: { definitions?: ResolvedToolDef[]; max_calls?: number; history?: boolean } | null;
  };
  return {
    sessionId,
    workspaceId: row.workspace_id,
    agent: snap.agent ?? null,
    definitions: snap.tools?.definitions ?? [],
    maxCalls: snap.tools?.max_calls ?? 20,
    history: snap.tools?.history ?? true,
  };
}

const wire = (error: ToolWireError, message: string) =>
  JSON.stringify({ ok: false, error, message: message.slice(0, 300) });

export class ToolGateway {
  private readonly agent = new Agent({ keepAliveTimeout: 5_000 });
  private readonly seqBase = new Map<string, number>();
  private readonly forwardedTurns = new Map<string, Set<number>>();

  constructor(private readonly ctx: EmulatorContext) {}

  private channel(sid: string): {
    spent: number;
    disabled_reason: string | null;
    consecutive_failures: number;
  } {
    const db = this.ctx.db;
    toolSql(db).insertSessionToolChannelsIfAbsent.run(sid);
    return toolSql(db).getSessionToolChannelsBySessionId.get(sid) as {
      spent: number;
      disabled_reason: string | null;
      consecutive_failures: number;
    };
  }

  /** One call from the box. Returns the exact JSON text answered (a replay returns the stored text). */
  async call(s: SessionTools, input: ToolCallInput): Promise<string> {
    const db = this.ctx.db;
    const stored = toolSql(db).getStoredToolReply.get(s.sessionId, input.idem) as
      | { response_json: string }
      | undefined;
    // spec 6.2 step 7: dedupe on idem (not call_id); the stored bytes, no hook call, no budget.
    if (stored) return stored.response_json;
    const def = s.definitions.find((d) => d.name === input.tool);
    if (!def) return wire('unknown_tool', `no tool named ${input.tool} in this session`);
    if (def.source === 'builtin')
      return wire('builtin_tool_is_local', `${input.tool} is a built-in tool: the box runs it`);
    const ch = this.channel(s.sessionId);
    if (ch.disabled_reason)
      return wire(
        'server_disabled',
        `the tool channel is disabled for this session (${ch.disabled_reason})`,
      );
    if (def.source === 'mcp') {
      const row = mcpRegistry(this.ctx).byId(def.server ?? '');
      if (!row || row.status === 'disabled')
        return wire('server_disabled', `MCP server ${def.server} was removed or disabled`);
    }
    if (ch.spent >= s.maxCalls)
      return wire('budget_exhausted', `max_calls (${s.maxCalls}) reached`);
    toolSql(db).spendToolChannel.run(s.sessionId);
    const started = this.ctx.clock.now();
    let text: string;
    let ok = false;
    let result: Record<string, unknown> | null = null;
    try {
      result = await this.attempt(s, def, input, 0);
      toolSql(db).resetToolChannelFailures.run(s.sessionId);
      ok = true;
      text = JSON.stringify({ ok: true, status: 'done', result });
    } catch (err) {
      const f =
        err instanceof CallFailed
          ? err.failure
          : { kind: 'transport' as const, message: errorLine(err) };
      this.noteFailure(s.sessionId, f);
      text = wire(f.kind === 'timeout' ? 'timeout' : 'tool_error', f.message);
    }
    const ms = this.ctx.clock.now() - started;
    this.record(s, input, def.source, text, ok, ms);
    this.webhook(s, input.tool, def.source, ok, ms, ok ? result : JSON.parse(text));
    return text;
  }

  /** A built-in tool the box ran (spec 6.3: reported after completion; fires webhooks, spends budget). */
  report(
    s: SessionTools,
    input: ToolCallInput & { ok: boolean; ms: number; result: unknown },
  ): string {
    const db = this.ctx.db;
    const stored = toolSql(db).getStoredToolReply.get(s.sessionId, input.idem) as
      | { response_json: string }
      | undefined;
    if (stored) return stored.response_json;
    this.channel(s.sessionId);
    toolSql(db).spendToolChannel.run(s.sessionId);
    const text = input.ok
      ? JSON.stringify({ ok: true, status: 'done', result: input.result })
      : wire('tool_error', String(input.result ?? 'failed'));
    this.record(s, input, 'builtin', text, input.ok, input.ms);
    this.usage(s, input);
    this.webhook(
      s,
      input.tool,
      'builtin',
      input.ok,
      input.ms,
      input.ok ? input.result : JSON.parse(text),
    );
    return text;
  }

  /** spec 6.3: a reported built-in call is a usage record of the workspace's organisation (none without one). */
  private usage(
    s: SessionTools,
    input: ToolCallInput & { ok: boolean; ms: number; result: unknown },
  ) {
    const def = s.definitions.find((d) => d.name === input.tool);
    const sql = toolSql(this.ctx.db);
    const ws = sql.getWorkspaceOrgById.get(s.workspaceId) as { org_id: string | null } | undefined;
    if (!ws?.org_id) return;
    const r = input.result as { kind?: unknown } | null;
    const images = input.ok && r && typeof r === 'object' && r.kind === 'image' ? 1 : 0;
    sql.insertToolUsage.run(
      ws.org_id,
      s.workspaceId,
      unixSeconds(this.ctx.clock),
      def?.server ?? 'builtin',
      input.tool,
      input.ok ? 1 : 0,
      Math.max(0, Math.round(input.ms)),
      images,
    );
  }

  /** Budget left and whether the channel is open (the box checks before it runs a built-in). */
  state(sid: string, maxCalls: number): { spent: number; left: number; disabled: string | null } {
    const ch = this.channel(sid);
    return {
      spent: ch.spent,
      left: Math.max(0, maxCalls - ch.spent),
      disabled: ch.disabled_reason,
    };
  }

  private noteFailure(sid: string, f: Failure): void {
    const db = this.ctx.db;
    if (f.kind === '4xx') {
      toolSql(db).disableToolChannel.run(`4xx: ${f.message}`.slice(0, 300), sid);
      return;
    }
    if (f.kind === '5xx' || f.kind === 'transport' || f.kind === 'timeout') {
      toolSql(db).countToolChannelFailure.run(sid);
      const ch = this.channel(sid);
      if (ch.consecutive_failures >= FAILURES_TO_DISABLE) {
        toolSql(db).disableToolChannel.run(`${FAILURES_TO_DISABLE} consecutive failures`, sid);
      }
    }
  }

  private record(
    s: SessionTools,
    input: ToolCallInput,
    source: string,
    text: string,
    ok: boolean,
    ms: number,
  ): void {
    toolSql(this.ctx.db).insertSessionToolCallsIfAbsent.run(
      s.sessionId,
      input.call_id,
      input.idem,
      input.tool,
      JSON.stringify({ args: input.args }),
      text,
      unixSeconds(this.ctx.clock),
      source,
      ok ? 1 : 0,
      ms,
    );
  }

  private webhook(
    s: SessionTools,
    tool: string,
    source: string,
    ok: boolean,
    ms: number,
    result: unknown,
  ): void {
    const rt = sessionRuntime(this.ctx);
    const data = {
      session_id: s.sessionId,
      conv: s.agent?.conv ?? s.sessionId,
      tool,
      source,
      ok,
      ms,
      result,
    };
    rt.webhooks.emit(
      ok ? 'agent.tool_call.succeeded' : 'agent.tool_call.failed',
      s.workspaceId,
      data,
      null,
      TOOL_WEBHOOK_DELAYS_MS,
    );
  }

  /** One attempt, and the one retry of an idempotent tool after a transport error. */
  private async attempt(
    s: SessionTools,
    def: ResolvedToolDef,
    input: ToolCallInput,
    n: number,
  ): Promise<Record<string, unknown>> {
    try {
      return await this.withTimeout(def.timeout_ms, (signal) =>
        def.source === 'mcp' ? this.viaMcp(s, def, input, signal) : this.viaHook(s, input, signal),
      );
    } catch (err) {
      if (
        n === 0 &&
        def.idempotent &&
        err instanceof CallFailed &&
        err.failure.kind === 'transport'
      ) {
        this.noteFailure(s.sessionId, err.failure);
        return this.attempt(s, def, input, 1);
      }
      throw err;
    }
  }

  private async withTimeout<T>(ms: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    let timedOut = false;
    const timer = this.ctx.clock.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, ms);
    try {
      return await Promise.race([
        fn(abort.signal),
        new Promise<never>((_, reject) =>
          abort.signal.addEventListener('abort', () =>
            reject(new CallFailed({ kind: 'timeout', message: `no answer within ${ms} ms` })),
          ),
        ),
      ]);
    } catch (err) {
      if (timedOut) throw new CallFailed({ kind: 'timeout', message: `no answer within ${ms} ms` });
      throw err;
    } finally {
      timer.cancel();
    }
  }

  private envelope(s: SessionTools, op: string, extra: Record<string, unknown>): string {
    return JSON.stringify({
      v: s.agent?.v ?? 1,
      op,
      conv: s.agent?.conv ?? s.sessionId,
      sid: s.sessionId,
      // spec 2: timestamps are Unix seconds unless stated; 6.2 states nothing else for `ts`.
      ts: unixSeconds(this.ctx.clock),
      ...extra,
    });
  }

  private async post(
    s: SessionTools,
    body: string,
    signal: AbortSignal,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'avatar-tools/1',
    };
    if (s.agent?.tok) headers.authorization = `Bearer ${s.agent.tok}`;
    const res = await request(s.agent!.hook!, {
      method: 'POST',
      headers,
      body,
      signal,
      dispatcher: this.agent,
    });
    return { status: res.statusCode, text: await res.body.text() };
  }

  private async viaHook(
    s: SessionTools,
    input: ToolCallInput,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (!s.agent?.hook) throw new CallFailed({ kind: 'bad_answer', message: 'no agent.hook' });
    const body = this.envelope(s, 'tool_call', {
      call_id: input.call_id,
      idem: input.idem,
      tool: input.tool,
      args: input.args,
      history: input.history,
    });
    let r: { status: number; text: string };
    try {
      r = await this.post(s, body, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new CallFailed({ kind: 'transport', message: errorLine(err) });
    }
    if (r.status >= 400 && r.status < 500)
      throw new CallFailed({ kind: '4xx', message: `hook answered ${r.status}` });
    if (r.status >= 500)
      throw new CallFailed({ kind: '5xx', message: `hook answered ${r.status}` });
    let answer: unknown;
    try {
      answer = JSON.parse(r.text);
    } catch {
      throw new CallFailed({ kind: 'bad_answer', message: 'hook answer is not JSON' });
    }
    // spec 6.2: anything other than ok: true, status: done and an object result is a failure.
    const a = answer as { ok?: unknown; status?: unknown; result?: unknown; error?: unknown };
    if (
      a?.ok !== true ||
      a.status !== 'done' ||
      !a.result ||
      typeof a.result !== 'object' ||
      Array.isArray(a.result)
    ) {
      const msg =
        typeof a?.error === 'string'
          ? a.error
          : 'hook answer is not { ok: true, status: done, result }';
      throw new CallFailed({ kind: 'bad_answer', message: msg });
    }
    return normaliseResult(a.result as Record<string, unknown>);
  }

  private async viaMcp(
    s: SessionTools,
    def: ResolvedToolDef,
    input: ToolCallInput,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const row = mcpRegistry(this.ctx).byId(def.server ?? '');
    if (!row || row.status === 'disabled')
      throw new CallFailed({
        kind: 'bad_answer',
        message: `MCP server ${def.server} is gone or disabled`,
      });
    const meta: Record<string, unknown> = {
      'svc/conv': s.agent?.conv ?? s.sessionId,
      'svc/sid': s.sessionId,
    };
    if (s.history) meta['svc/history'] = input.history;
    let r;
    try {
      r = await callMcpTool(row.url, rowAuth(row), def.name, input.args, meta, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      const code = (err as { code?: unknown }).code;
      if (typeof code === 'number' && code >= 400 && code < 500)
        throw new CallFailed({ kind: '4xx', message: errorLine(err) });
      if (typeof code === 'number' && code >= 500 && code < 600)
        throw new CallFailed({ kind: '5xx', message: errorLine(err) });
      // JSON-RPC errors (negative codes) are the server's answer, not a transport failure.
      if (typeof code === 'number' && code < 0)
        throw new CallFailed({ kind: 'bad_answer', message: errorLine(err) });
      throw new CallFailed({ kind: 'transport', message: errorLine(err) });
    }
    if (r.isError)
      throw new CallFailed({
        kind: 'bad_answer',
        message: r.text || 'the MCP tool reported an error',
      });
    const text = Buffer.from(r.text).subarray(0, MCP_RESULT_BYTES).toString('utf8');
    return normaliseResult({
      kind: 'tool',
      text,
      ...(r.structured !== undefined ? { structured: r.structured } : {}),
    });
  }

  /** Hook ops the control plane sends (spec 6.2): fire and forget but for session_start's turn_seq_base. */
  async hookOp(
    s: SessionTools,
    op: 'session_start' | 'turn_committed' | 'session_end',
    extra: Record<string, unknown>,
  ): Promise<unknown> {
    if (!s.agent?.hook) return null;
    const abort = new AbortController();
    const timer = this.ctx.clock.setTimeout(() => abort.abort(), HOOK_OP_TIMEOUT_MS);
    try {
      const r = await this.post(s, this.envelope(s, op, extra), abort.signal);
      const body = JSON.parse(r.text) as { turn_seq_base?: unknown };
      if (
        op === 'session_start' &&
        typeof body.turn_seq_base === 'number' &&
        Number.isInteger(body.turn_seq_base)
      ) {
        this.seqBase.set(s.sessionId, body.turn_seq_base);
      }
      return body;
    } catch {
      return null;
    } finally {
      timer.cancel();
    }
  }

  /** Resolves once the hook answered (or failed); the caller need not wait. */
  async sessionStarted(sid: string): Promise<void> {
    const s = readSessionTools(this.ctx, sid);
    if (s?.agent?.hook) await this.hookOp(s, 'session_start', {});
  }

  turnCommitted(sid: string, turn: { seq: number; user_text: string; reply_text: string }): void {
    const seen = this.forwardedTurns.get(sid) ?? new Set<number>();
    if (seen.has(turn.seq)) return;
    seen.add(turn.seq);
    this.forwardedTurns.set(sid, seen);
    const s = readSessionTools(this.ctx, sid);
    if (s?.agent?.hook)
      void this.hookOp(s, 'turn_committed', {
        seq: (this.seqBase.get(sid) ?? 0) + turn.seq,
        user: turn.user_text,
        reply: turn.reply_text,
      });
  }

  sessionEnded(sid: string, reason: string): void {
    const s = readSessionTools(this.ctx, sid);
    this.forwardedTurns.delete(sid);
    if (s?.agent?.hook)
      void this.hookOp(s, 'session_end', { reason }).finally(() => this.seqBase.delete(sid));
  }

  /** spec 8: tool-call ledger rows older than 30 days go. */
  sweep(): void {
    const cutoff = unixSeconds(this.ctx.clock) - LEDGER_RETENTION_S;
    toolSql(this.ctx.db).deleteSessionToolCallsByCreatedAt.run(cutoff);
    // A channel's counters go with the session's ledger (ended over 30 days ago, or erased).
    toolSql(this.ctx.db).deleteSessionToolChannelsByEndedAt.run(cutoff);
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** A result as spec 6.2 shapes it: kind tool|image|image_pending; `structured` cut to 800 chars of JSON. */
export function normaliseResult(r: Record<string, unknown>): Record<string, unknown> {
  const kind = r.kind === 'image' || r.kind === 'image_pending' ? r.kind : 'tool';
  const out: Record<string, unknown> = { kind };
  if (typeof r.text === 'string') out.text = r.text;
  if (r.structured !== undefined) {
    const s = JSON.stringify(r.structured) ?? '';
    out.structured = s.length > STRUCTURED_CHARS ? s.slice(0, STRUCTURED_CHARS) : r.structured;
  }
  if (typeof r.url === 'string') out.url = r.url;
  if (typeof r.caption === 'string') out.caption = r.caption;
  return out;
}
