/**
 * Tool resolution at mint (spec 4.5, 4.11, 7 "Tools at mint"): MCP server ids are looked up
 * in the workspace's registry, built-in keys in the workspace's enablement. The registry
 * routes come with a later issue; the tables and these checks live here.
 */
import { ErrorCode } from '../../contract/errors.js';
import {
  applyAllow,
  checkResolvedTools,
  mergeTools,
  type ToolsObject,
} from '../../contract/validators/tools.js';
import type { Db } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { fail } from './validate-mint.js';

/** Built-in servers and the tools they provide (spec 4.11: `svc.image`). */
export const BUILTIN_SERVERS: Record<string, string[]> = {
  'svc.image': ['generate_image', 'edit_avatar'],
};

const isBuiltinKey = (s: string) => !s.startsWith('mcps_');

export interface ResolvedTools {
  /** Tools object frozen into the session (servers, inline, allow, max_calls, history). */
  tools: ToolsObject | null;
  /** Names after `allow` (the 201's `tools_resolved`). */
  names: string[];
}

/** Tool names a server id provides, or the spec 7 error. */
export function serverTools(db: Db, workspaceId: string, id: string): string[] {
  if (isBuiltinKey(id)) {
    const tools = BUILTIN_SERVERS[id];
    if (!tools) throw new ApiError(404, ErrorCode.builtinServerNotFound, { message: `unknown built-in server ${id}` });
    const row = db.prepare('SELECT enabled FROM builtin_servers WHERE workspace_id = ? AND server_key = ?').get(workspaceId, id) as
      | { enabled: number }
      | undefined;
    if (!row?.enabled) throw new ApiError(403, ErrorCode.builtinServerNotEnabled, { message: `built-in server ${id} is not enabled` });
    return tools;
  }
  const row = db.prepare('SELECT status, tools_json FROM mcp_servers WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as
    | { status: string; tools_json: string | null }
    | undefined;
  if (!row || row.status === 'disabled') {
    throw new ApiError(400, ErrorCode.mcpServerNotFound, { message: `MCP server ${id} is unknown or disabled` });
  }
  if (row.tools_json === null) {
    throw new ApiError(409, ErrorCode.mcpServerUnavailable, { message: `MCP server ${id} has no cached tool list` });
  }
  try {
    return (JSON.parse(row.tools_json) as { name: string }[]).map((t) => t.name);
  } catch {
    throw new ApiError(409, ErrorCode.mcpServerUnavailable, { message: `MCP server ${id} has no usable tool list` });
  }
}

/**
 * spec 4.5: `tools` replaces the stored tool config, `extra_tools` merges onto the result;
 * a malformed stored tools_json never fails a mint (the session runs without tools).
 */
export function resolveTools(
  db: Db,
  workspaceId: string | null,
  sent: { tools: ToolsObject | null; extraTools: ToolsObject | null },
  stored: ToolsObject | null,
): ResolvedTools {
  let tools = sent.tools ?? stored;
  if (sent.extraTools) {
    const merged = mergeTools(tools, sent.extraTools);
    if (!merged.ok) throw fail(merged);
    tools = merged.value;
  }
  if (!tools) return { tools: null, names: [] };
  const all: { name: string }[] = [];
  for (const id of tools.servers) {
    if (!workspaceId) {
      throw new ApiError(400, ErrorCode.workspaceIdRequired, { message: 'tools.servers need a workspace: pass workspace_id' });
    }
    for (const name of serverTools(db, workspaceId, id)) all.push({ name });
  }
  all.push(...tools.inline);
  const names = applyAllow(all, tools.allow).map((t) => t.name);
  const toolsSent = sent.tools !== null || sent.extraTools !== null;
  const checked = checkResolvedTools(names, toolsSent);
  if (!checked.ok) throw fail(checked);
  return { tools, names: checked.value };
}
