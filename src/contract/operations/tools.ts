/**
 * Tool servers (spec 4.11): the workspace's MCP server registry and its built-in servers.
 * Scope `workspaces:write` or `user:write`, reads included (spec 4.11).
 */
import { defineOperation } from '../operation.js';
import { listOf, WsParams } from '../resources/common.js';
import {
  BuiltinServerParams,
  BuiltinServerSchema,
  McpServerParams,
  McpServerSchema,
  PatchMcpServerBody,
  PutBuiltinServerBody,
  RegisterMcpServerBody,
} from '../resources/tools.js';

const auth = { anyOf: ['workspaces:write', 'user:write'] } as const;

export const registerMcpServer = defineOperation({
  id: 'mcp.add',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/mcp-servers',
  summary: 'Register an MCP server: a live probe (initialize, tools/list) sets active or error',
  auth,
  params: WsParams,
  body: RegisterMcpServerBody,
  responses: {
    201: {
      description: 'The registration (status error with last_error when the probe failed)',
      schema: McpServerSchema,
    },
  },
  cli: { group: 'mcp', verb: 'add' },
});

export const listMcpServers = defineOperation({
  id: 'mcp.list',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}/mcp-servers',
  summary: 'List the workspace MCP servers',
  auth,
  params: WsParams,
  responses: { 200: { description: 'Servers', schema: listOf(McpServerSchema) } },
  cli: { group: 'mcp', verb: 'list' },
});

export const getMcpServer = defineOperation({
  id: 'mcp.get',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}/mcp-servers/{serverId}',
  summary: 'One MCP server',
  auth,
  params: McpServerParams,
  responses: { 200: { description: 'The server', schema: McpServerSchema } },
  cli: { group: 'mcp', verb: 'get' },
});

export const patchMcpServer = defineOperation({
  id: 'mcp.patch',
  method: 'patch',
  path: '/api/v1/workspaces/{wsId}/mcp-servers/{serverId}',
  summary: 'Disable an MCP server ({ status: disabled })',
  auth,
  params: McpServerParams,
  body: PatchMcpServerBody,
  responses: { 200: { description: 'The server', schema: McpServerSchema } },
  // `avatar mcp disable <id>` (src/cli/tools/tool-servers.ts) sends the body.
  cli: false,
});

export const deleteMcpServer = defineOperation({
  id: 'mcp.rm',
  method: 'delete',
  path: '/api/v1/workspaces/{wsId}/mcp-servers/{serverId}',
  summary: 'Remove an MCP server (always 204)',
  auth,
  params: McpServerParams,
  responses: { 204: { description: 'Removed (also when already gone)' } },
  cli: { group: 'mcp', verb: 'rm' },
});

export const refreshMcpServer = defineOperation({
  id: 'mcp.refresh',
  method: 'post',
  path: '/api/v1/workspaces/{wsId}/mcp-servers/{serverId}/refresh',
  summary: 'Probe again and re-read the tool list',
  auth,
  params: McpServerParams,
  responses: { 200: { description: 'The server', schema: McpServerSchema } },
  cli: { group: 'mcp', verb: 'refresh' },
});

export const listBuiltinServers = defineOperation({
  id: 'builtins.list',
  method: 'get',
  path: '/api/v1/workspaces/{wsId}/builtin-servers',
  summary: 'Built-in servers and whether this workspace enabled them',
  auth,
  params: WsParams,
  responses: {
    200: { description: 'Built-in servers (shape ours)', schema: listOf(BuiltinServerSchema) },
  },
  cli: { group: 'builtins', verb: 'list' },
});

export const putBuiltinServer = defineOperation({
  id: 'builtins.put',
  method: 'put',
  path: '/api/v1/workspaces/{wsId}/builtin-servers/{serverKey}',
  summary: 'Enable or disable a built-in server for the workspace',
  auth,
  params: BuiltinServerParams,
  body: PutBuiltinServerBody,
  responses: { 200: { description: 'The built-in server', schema: BuiltinServerSchema } },
  // `avatar builtins enable|disable <key>` (src/cli/tools/tool-servers.ts).
  cli: false,
});

export const toolOperations = [
  registerMcpServer,
  listMcpServers,
  getMcpServer,
  patchMcpServer,
  deleteMcpServer,
  refreshMcpServer,
  listBuiltinServers,
  putBuiltinServer,
];
