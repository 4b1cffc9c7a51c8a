/**
 * Tool resolution at mint (spec 4.5, 4.11, 7 "Tools at mint"): MCP server ids are looked up
 * in the workspace's registry (its cached tool list after `allowed_tools`; a list older than
 * 10 min is used and revalidated in the background), built-in keys in the workspace's
 * enablement; then inline definitions, the `allow` filter and the final checks. The
 * resolved definitions are frozen with the session (the gateway and the box use them).
 */
import { BUILTIN_SERVERS, isBuiltinKey } from '../../contract/builtins.js';
import { ErrorCode } from '../../contract/errors.js';
import { Limits } from '../../contract/limits.js';
import {
  applyAllow,
  checkResolvedTools,
  mergeTools,
  type ToolDefinition,
  type ToolsObject,
} from '../../contract/validators/tools.js';
import type { EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { builtinEnabled } from '../tools/builtins.js';
import { mcpRegistry, offeredTools } from '../tools/registry.js';
import { fail } from './validate-mint.js';
import { own } from '../../contract/own.js';

/** A resolved tool: its definition and who runs it (spec 6.3 `source`). */
export interface ResolvedToolDef extends ToolDefinition {
  source: 'hook' | 'mcp' | 'builtin';
  /** The MCP server id or built-in key; null for inline (hook) tools. */
  server: string | null;
}

export interface ResolvedTools {
  /** Tools object frozen into the session (servers, inline, allow, max_calls, history). */
  tools: ToolsObject | null;
  /** Names after `allow` (the 201's `tools_resolved`). */
  names: string[];
  /** Definitions after `allow`, in the order of `names`. */
  definitions: ResolvedToolDef[];
}

/** The tools a server id provides, or the spec 7 error. */
export function serverTools(
  ctx: EmulatorContext,
  workspaceId: string,
  id: string,
): ResolvedToolDef[] {
  if (isBuiltinKey(id)) {
    const tools = own(BUILTIN_SERVERS, id);
    if (!tools)
      throw new ApiError(404, ErrorCode.builtinServerNotFound, {
        message: `unknown built-in server ${id}`,
      });
    if (!builtinEnabled(ctx.db, workspaceId, id)) {
      throw new ApiError(403, ErrorCode.builtinServerNotEnabled, {
        message: `built-in server ${id} is not enabled`,
      });
    }
    return tools.map((t) => ({ ...t, source: 'builtin', server: id }));
  }
  const reg = mcpRegistry(ctx);
  const row = reg.row(workspaceId, id);
  if (!row || row.status === 'disabled') {
    throw new ApiError(400, ErrorCode.mcpServerNotFound, {
      message: `MCP server ${id} is unknown or disabled`,
    });
  }
  const defs = offeredTools(row);
  if (defs === null)
    throw new ApiError(409, ErrorCode.mcpServerUnavailable, {
      message: `MCP server ${id} has no cached tool list`,
    });
  reg.revalidateIfStale(row);
  const timeout = Math.min(
    Limits.toolTimeoutMaxMs,
    Math.max(Limits.toolTimeoutMinMs, row.default_timeout_ms),
  );
  return defs.map((d) => ({
    name: d.name,
    description: d.description,
    input_schema:
      d.input_schema && typeof d.input_schema === 'object' ? d.input_schema : { type: 'object' },
    timeout_ms: timeout,
    idempotent: false,
    fast: false,
    source: 'mcp',
    server: id,
  }));
}

/**
 * spec 4.5: `tools` replaces the stored tool config, `extra_tools` merges onto the result
 * and "extra wins a name collision": each object's servers are expanded to their tools
 * first, so an extra tool (inline or from a server) replaces a base tool of the same name
 * whoever provides it. A name twice within one object is still 409 `tool_name_conflict`.
 * A malformed stored tools_json never fails a mint (the session runs without tools).
 */
export function resolveTools(
  ctx: EmulatorContext,
  workspaceId: string | null,
  sent: { tools: ToolsObject | null; extraTools: ToolsObject | null },
  stored: ToolsObject | null,
): ResolvedTools {
  const base = sent.tools ?? stored;
  let tools = base;
  if (sent.extraTools) {
    const merged = mergeTools(base, sent.extraTools);
    if (!merged.ok) throw fail(merged);
    tools = merged.value;
  }
  if (!tools) return { tools: null, names: [], definitions: [] };
  const extra = sent.extraTools ? expandTools(ctx, workspaceId, sent.extraTools) : [];
  const extraNames = new Set(extra.map((t) => t.name));
  const kept = base
    ? expandTools(ctx, workspaceId, base).filter((t) => !extraNames.has(t.name))
    : [];
  const allowed = applyAllow([...kept, ...extra], tools.allow);
  const toolsSent = sent.tools !== null || sent.extraTools !== null;
  const checked = checkResolvedTools(
    allowed.map((t) => t.name),
    toolsSent,
  );
  if (!checked.ok) throw fail(checked);
  return { tools, names: checked.value, definitions: allowed };
}

/** One tools object's definitions: its servers' tools, then its inline tools. */
function expandTools(
  ctx: EmulatorContext,
  workspaceId: string | null,
  tools: ToolsObject,
): ResolvedToolDef[] {
  const all: ResolvedToolDef[] = [];
  for (const id of tools.servers) {
    if (!workspaceId) {
      throw new ApiError(400, ErrorCode.workspaceIdRequired, {
        message: 'tools.servers need a workspace: pass workspace_id',
      });
    }
    all.push(...serverTools(ctx, workspaceId, id));
  }
  all.push(...tools.inline.map((t) => ({ ...t, source: 'hook' as const, server: null })));
  return all;
}
