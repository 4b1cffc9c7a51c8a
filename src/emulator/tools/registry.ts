/**
 * The workspace MCP server registry (spec 2 "MCP server registration", 3 "MCP server",
 * 4.11). Registration runs a live probe with the MCP SDK client (initialize, tools/list):
 * `active` with the tool list, or `error` with `last_error` (the row is still created).
 * The tool list is cached 10 min; a mint that finds it older uses it and revalidates in
 * the background (stale-while-revalidate, spec 8).
 */
import { ErrorCode } from '../../contract/errors.js';
import { liftedByInsecureUrls } from '../../contract/validators/https-url.js';
import {
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  patchMcpServer,
  refreshMcpServer,
  registerMcpServer,
} from '../../contract/operations/tools.js';
import { workspaceFromPath } from '../auth/workspace.js';
import { unixSeconds } from '../clock.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement, reply } from '../http/router.js';
import { errorLine, probeMcp, type McpAuth, type McpToolDef } from './mcp-client.js';
import { toolSql } from './sql.js';

/** spec 8: the tool list is cached 10 min (stale-while-revalidate). */
export const TOOL_LIST_TTL_S = 600;

export interface McpRow {
  id: string;
  workspace_id: string;
  name: string;
  url: string;
  status: 'active' | 'error' | 'disabled';
  tools_json: string | null;
  tools_cached_at: number | null;
  created_at: number;
  auth_json: string | null;
  allowed_tools: string | null;
  default_timeout_ms: number;
  last_error: string | null;
}

const NOT_A_URL = 'url: not a URL';

/**
 * spec 4.11: an https URL that is not localhost, not an IP literal, not a `.local` or
 * `.internal` host. `--allow-insecure-urls` (tests, local servers) accepts any http(s) URL.
 */
export function checkMcpUrl(s: string, allowInsecure: boolean): string | null {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return NOT_A_URL;
  }
  if (allowInsecure)
    return u.protocol === 'https:' || u.protocol === 'http:' ? null : 'url: must be http(s)';
  if (u.protocol !== 'https:') return 'url: must be https';
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'url: localhost is not allowed';
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('[') || /^\d+$/.test(host))
    return 'url: an IP literal is not allowed';
  if (host.endsWith('.local') || host.endsWith('.internal'))
    return 'url: .local and .internal hosts are not allowed';
  return null;
}

export const rowAuth = (r: McpRow): McpAuth =>
  r.auth_json ? (JSON.parse(r.auth_json) as McpAuth) : { kind: 'none' };
const allowedOf = (r: McpRow): string[] | null =>
  r.allowed_tools ? (JSON.parse(r.allowed_tools) as string[]) : null;

/** The tools this server offers to sessions: its cached list after `allowed_tools`; null when never listed. */
export function offeredTools(r: McpRow): McpToolDef[] | null {
  if (r.tools_json === null) return null;
  let defs: McpToolDef[];
  try {
    const parsed = JSON.parse(r.tools_json) as unknown;
    if (!Array.isArray(parsed)) return null;
    defs = parsed.filter(
      (d): d is McpToolDef =>
        !!d && typeof d === 'object' && typeof (d as McpToolDef).name === 'string',
    );
  } catch {
    return null;
  }
  const allowed = allowedOf(r);
  return allowed ? defs.filter((d) => allowed.includes(d.name)) : defs;
}

export function toMcpServer(r: McpRow) {
  const auth = rowAuth(r);
  const tools = (offeredTools(r) ?? []).map((t) => ({
    name: t.name,
    description: t.description ?? '',
  }));
  return {
    id: r.id,
    name: r.name,
    url: r.url,
    status: r.status,
    tools,
    tools_cached_at: r.tools_cached_at,
    validation: { ok: r.status === 'active' },
    ...(r.last_error && r.status !== 'active' ? { last_error: r.last_error } : {}),
    auth: { kind: auth.kind, ...(auth.header ? { header: auth.header } : {}) },
    allowed_tools: allowedOf(r),
    default_timeout_ms: r.default_timeout_ms,
    created_at: r.created_at,
  };
}

export class McpRegistry {
  private readonly revalidating = new Set<string>();

  constructor(private readonly ctx: EmulatorContext) {}

  row(workspaceId: string, id: string): McpRow | undefined {
    return toolSql(this.ctx.db).getMcpServersByIdAndWorkspaceId.get(id, workspaceId) as
      | McpRow
      | undefined;
  }

  byId(id: string): McpRow | undefined {
    return toolSql(this.ctx.db).getMcpServersById.get(id) as McpRow | undefined;
  }

  /** Probe and store the outcome: active with the list, or error with last_error (the old list kept). */
  async probe(id: string): Promise<McpRow> {
    const r = this.byId(id)!;
    try {
      const defs = await probeMcp(r.url, rowAuth(r));
      const status = r.status === 'disabled' ? 'disabled' : 'active';
      toolSql(this.ctx.db).setMcpServerTools.run(
        status,
        JSON.stringify(defs),
        unixSeconds(this.ctx.clock),
        id,
      );
    } catch (err) {
      const status = r.status === 'disabled' ? 'disabled' : 'error';
      toolSql(this.ctx.db).setMcpServerError.run(status, errorLine(err), id);
    }
    return this.byId(id)!;
  }

  /** A mint found a list older than 10 min: it uses it, and one background probe refreshes it. */
  revalidateIfStale(r: McpRow): void {
    if (
      r.tools_cached_at === null ||
      unixSeconds(this.ctx.clock) - r.tools_cached_at < TOOL_LIST_TTL_S
    )
      return;
    if (this.revalidating.has(r.id)) return;
    this.revalidating.add(r.id);
    void this.probe(r.id)
      .catch(() => undefined)
      .finally(() => this.revalidating.delete(r.id));
  }
}

/** The emulator's MCP registry (built once by src/emulator/services.ts). */
export function mcpRegistry(ctx: EmulatorContext): McpRegistry {
  return ctx.services.mcp;
}

export function registerMcpRoutes(app: App, ctx: EmulatorContext): void {
  const { db } = ctx;
  const reg = mcpRegistry(ctx);
  const find = (wsId: string, id: string): McpRow => {
    const r = reg.row(wsId, id);
    if (!r) throw new ApiError(404, ErrorCode.notFound, { message: `MCP server ${id} not found` });
    return r;
  };

  implement(app, ctx, registerMcpServer, async ({ auth, params, body }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const bad = checkMcpUrl(body.url, ctx.options.allowInsecureUrls);
    if (bad) {
      // Every rule but "not a URL" is one the emulator's flag lifts.
      const refusal = `url is not allowed: ${bad.slice(5)}`;
      throw new ApiError(400, ErrorCode.invalidRequest, {
        message: bad === NOT_A_URL ? refusal : liftedByInsecureUrls(refusal),
        detail: bad,
      });
    }
    const a = body.auth ?? { kind: 'none' as const };
    if (a.kind !== 'none' && !a.secret) {
      throw new ApiError(400, ErrorCode.invalidRequest, {
        message: `auth kind ${a.kind} needs a secret`,
        detail: 'auth.secret: required',
      });
    }
    if (a.kind === 'header' && !a.header) {
      throw new ApiError(400, ErrorCode.invalidRequest, {
        message: 'auth kind header needs header',
        detail: 'auth.header: required',
      });
    }
    const id = `mcps_${ctx.ids.hex(12)}`;
    toolSql(db).insertMcpServers.run(
      id,
      ws.id,
      body.name,
      body.url,
      unixSeconds(ctx.clock),
      JSON.stringify(a),
      body.allowed_tools ? JSON.stringify(body.allowed_tools) : null,
      body.default_timeout_ms ?? 8000,
    );
    return reply(201, toMcpServer(await reg.probe(id)));
  });

  implement(app, ctx, listMcpServers, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    const rows = toolSql(db).listMcpServersByWorkspaceId.all(ws.id) as McpRow[];
    return { data: rows.map(toMcpServer) };
  });

  implement(app, ctx, getMcpServer, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    return toMcpServer(find(ws.id, params.serverId));
  });

  implement(app, ctx, patchMcpServer, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    find(ws.id, params.serverId);
    toolSql(db).disableMcpServer.run(params.serverId);
    return toMcpServer(find(ws.id, params.serverId));
  });

  implement(app, ctx, deleteMcpServer, ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    toolSql(db).deleteMcpServersByIdAndWorkspaceId.run(params.serverId, ws.id);
    return reply(204);
  });

  implement(app, ctx, refreshMcpServer, async ({ auth, params }) => {
    const ws = workspaceFromPath(db, auth, params.wsId);
    find(ws.id, params.serverId);
    return toMcpServer(await reg.probe(params.serverId));
  });
}
