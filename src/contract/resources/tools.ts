/**
 * Tool servers (spec 2 "MCP server registration", 4.11): the MCP registry and the built-in
 * servers. Fields beyond the spec's (auth kind, allowed_tools, default_timeout_ms,
 * created_at, updated_at; the built-in list shape) are ours (docs/fidelity.md "Tools").
 */
import { z } from 'zod';
import { named } from '../registry.js';
import { UnixSeconds, Uuid } from './common.js';

export const McpAuthSchema = z
  .object({
    kind: z.enum(['none', 'bearer', 'header']).default('none'),
    secret: z.string().min(1).max(4096).optional(),
    header: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/)
      .optional()
      .describe('header name (kind header)'),
  })
  .strict();

export const RegisterMcpServerBody = named(
  'RegisterMcpServerRequest',
  z
    .object({
      name: z.string().min(1).max(100),
      url: z
        .string()
        .min(1)
        .max(2048)
        .describe('https URL; not localhost, not an IP literal, not .local/.internal'),
      auth: McpAuthSchema.optional(),
      allowed_tools: z
        .array(z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/))
        .max(64)
        .optional(),
      default_timeout_ms: z.number().int().min(1000).max(25000).optional(),
    })
    .strict(),
);
export type RegisterMcpServerInput = z.output<typeof RegisterMcpServerBody>;

export const PatchMcpServerBody = named(
  'PatchMcpServerRequest',
  z.object({ status: z.literal('disabled') }).strict(),
);

export const McpToolSummary = z.object({ name: z.string(), description: z.string() });

export const McpServerSchema = named(
  'McpServer',
  z.object({
    id: z.string().describe('mcps_...'),
    name: z.string(),
    url: z.string(),
    status: z.enum(['active', 'error', 'disabled']),
    tools: z.array(McpToolSummary),
    tools_cached_at: UnixSeconds.nullable(),
    validation: z.object({ ok: z.boolean() }),
    last_error: z.string().optional(),
    auth: z
      .object({ kind: z.enum(['none', 'bearer', 'header']), header: z.string().optional() })
      .describe('ours; never the secret'),
    allowed_tools: z.array(z.string()).nullable().describe('ours'),
    default_timeout_ms: z.number().int().describe('ours'),
    created_at: UnixSeconds.describe('ours'),
  }),
  'MCP server registration (spec 2; fields after last_error are ours)',
);

export const McpServerParams = z.object({
  wsId: Uuid.describe('workspace id'),
  serverId: z.string().min(1).max(100).describe('mcps_...'),
});

export const BuiltinServerSchema = named(
  'BuiltinServer',
  z.object({
    key: z.string().describe('for instance svc.image'),
    enabled: z.boolean(),
    tools: z.array(McpToolSummary),
  }),
  'A built-in server (the list shape is ours: spec 4.11 says not shown)',
);

export const BuiltinServerParams = z.object({
  wsId: Uuid.describe('workspace id'),
  serverKey: z.string().min(1).max(64),
});
export const PutBuiltinServerBody = named(
  'PutBuiltinServerRequest',
  z.object({ enabled: z.boolean() }).strict(),
);

/** Wire-level tool errors (spec 7), answered in a 200 body. */
export const ToolWireErrors = [
  'unknown_tool',
  'budget_exhausted',
  'server_disabled',
  'builtin_tool_is_local',
  'timeout',
  'tool_error',
] as const;
export type ToolWireError = (typeof ToolWireErrors)[number];

/** A tool result (spec 6.2). */
export const ToolResultSchema = z.object({
  kind: z.enum(['tool', 'image', 'image_pending']),
  text: z.string().optional(),
  structured: z.unknown().optional(),
  url: z.string().optional(),
  caption: z.string().optional(),
});
export type ToolResult = z.output<typeof ToolResultSchema>;

const ToolCallHistory = z
  .array(z.object({ role: z.string().max(32), content: z.string().max(16_384) }))
  .max(40);
/** A tool call as the box posts it to the gateway (internal box API; spec 6.2 `tool_call` fields). */
export const ToolCallBody = z.object({
  call_id: z.string().min(1).max(100),
  idem: z.string().min(1).max(200),
  tool: z.string().min(1).max(64),
  args: z.record(z.string(), z.unknown()),
  history: ToolCallHistory,
});
export type ToolCallRequest = z.output<typeof ToolCallBody>;
/** A built-in call the box ran itself, reported to the control plane (budget, record, webhooks). */
export const ToolCallReportBody = ToolCallBody.extend({
  ok: z.boolean(),
  ms: z.number().int().min(0),
  result: z.unknown(),
});
