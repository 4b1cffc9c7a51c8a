/**
 * The tools object and tool definitions (spec 2 "Tools object", "Tool definition"; spec 7
 * "Tools at mint"). Used for a mint's `tools` / `extra_tools` and a profile's `tools_json`.
 *
 * Check order (ours; spec 7 lists codes, not their order): object shape, unknown keys,
 * `servers`, `inline` (count, hook requirement, then each definition in order: name,
 * description, schema root, `$ref`, size, depth, other fields), duplicate names,
 * `allow`, `max_calls`, `history`. The first failure is returned.
 */
import { ErrorCode, suffixed } from '../errors.js';
import { charCount, Limits } from '../limits.js';
import {
  accept,
  isPlainObject,
  reject,
  serializedBytes,
  type Validation,
  type ValidationFailure,
} from './result.js';
import { schemaDepth, schemaProblem, schemaRootIsObject, schemaUsesRef } from './tool-schema.js';

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  /** Clamped to 1,000..25,000; default 8,000 (spec 2). */
  timeout_ms: number;
  idempotent: boolean;
  fast: boolean;
  speak_hint?: string;
  cover_line?: string;
}

/** A validated tools object. `max_calls` and `history` stay absent when not sent (merge needs to know). */
export interface ToolsObject {
  servers: string[];
  inline: ToolDefinition[];
  allow?: string[];
  max_calls?: number;
  history?: boolean;
}

export const TOOLS_FIELDS = ['servers', 'inline', 'allow', 'max_calls', 'history'] as const;
export const TOOL_DEFINITION_FIELDS = [
  'name',
  'description',
  'input_schema',
  'timeout_ms',
  'idempotent',
  'fast',
  'speak_hint',
  'cover_line',
] as const;
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ToolsValidationOptions {
  /** Field name used in `invalid_request` details (`tools`, `extra_tools`, `tools_json`). */
  field?: string;
  /**
   * Mint only: the `agent.hook` sent with the tools. When the option is present
   * (even as null), inline tools without a hook answer `inline_tools_require_agent_hook`.
   * A profile's `tools_json` omits it: the hook arrives with each mint.
   */
  agentHook?: string | null;
}

const badShape = (field: string, message: string) =>
  reject(400, ErrorCode.invalidRequest, message, `${field}: ${message}`);

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0);
}

/** Validate one tool definition (spec 2 "Tool definition"). */
export function validateToolDefinition(
  input: unknown,
  where = 'tools.inline',
): Validation<ToolDefinition> {
  if (!isPlainObject(input)) return badShape(where, 'a tool definition must be an object');
  const name = input.name;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    return reject(400, ErrorCode.invalidToolName, 'tool name must match [a-zA-Z0-9_-]{1,64}');
  }
  const d = input.description;
  if (typeof d !== 'string' || d.length === 0 || charCount(d) > Limits.toolDescriptionChars) {
    return reject(
      400,
      suffixed.invalidToolDescription(name),
      `description is required, at most ${Limits.toolDescriptionChars} characters`,
    );
  }
  const schema = input.input_schema;
  if (!schemaRootIsObject(schema)) {
    return reject(
      400,
      suffixed.schemaRootMustBeObject(name),
      'input_schema must be a JSON Schema with root type object',
    );
  }
  if (schemaUsesRef(schema))
    return reject(
      400,
      suffixed.schemaRefUnsupported(name),
      'input_schema may not use $ref or $defs',
    );
  if (serializedBytes(schema) > Limits.toolSchemaBytes) {
    return reject(
      400,
      suffixed.schemaTooLarge(name),
      `input_schema is over ${Limits.toolSchemaBytes} bytes`,
    );
  }
  if (schemaDepth(schema) > Limits.toolSchemaDepth) {
    return reject(
      400,
      suffixed.schemaTooDeep(name),
      `input_schema is deeper than ${Limits.toolSchemaDepth}`,
    );
  }
  // Decided (docs/fidelity.md): a schema that is not valid JSON Schema (draft 2020-12) is
  // 400 invalid_request naming the keyword; spec 7 has no code of its own for it.
  const problem = schemaProblem(schema);
  if (problem) {
    return reject(
      400,
      ErrorCode.invalidRequest,
      `input_schema of ${name} is not a valid JSON Schema: ${problem}`,
      `${where}.${name}.input_schema: ${problem}`,
    );
  }
  // Decided (docs/fidelity.md): an unknown field of a definition uses the tools-object code.
  for (const key of Object.keys(input)) {
    if (!(TOOL_DEFINITION_FIELDS as readonly string[]).includes(key)) {
      const allowed = TOOL_DEFINITION_FIELDS.join(', ');
      return reject(
        400,
        suffixed.unknownToolsField(key),
        `unknown field ${key} in tool ${name}; allowed: ${allowed}`,
        `${key}: not a tool definition field (allowed: ${allowed})`,
      );
    }
  }
  let timeout: number = Limits.toolTimeoutDefaultMs;
  if (input.timeout_ms !== undefined && input.timeout_ms !== null) {
    if (typeof input.timeout_ms !== 'number' || !Number.isFinite(input.timeout_ms)) {
      return badShape(`${where}.${name}.timeout_ms`, 'expected a number');
    }
    // spec 2: clamped, not refused.
    timeout = Math.min(
      Limits.toolTimeoutMaxMs,
      Math.max(Limits.toolTimeoutMinMs, Math.round(input.timeout_ms)),
    );
  }
  const flags: Record<'idempotent' | 'fast', boolean> = { idempotent: false, fast: false };
  for (const f of ['idempotent', 'fast'] as const) {
    const v = input[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') return badShape(`${where}.${name}.${f}`, 'expected a boolean');
    flags[f] = v;
  }
  const out: ToolDefinition = {
    name,
    description: d,
    input_schema: schema,
    timeout_ms: timeout,
    ...flags,
  };
  for (const f of ['speak_hint', 'cover_line'] as const) {
    const v = input[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') return badShape(`${where}.${name}.${f}`, 'expected a string');
    out[f] = v;
  }
  return accept(out);
}

/** Validate a tools object (spec 2 "Tools object"). */
export function validateTools(
  input: unknown,
  opts: ToolsValidationOptions = {},
): Validation<ToolsObject> {
  const field = opts.field ?? 'tools';
  if (!isPlainObject(input)) return badShape(field, 'expected an object');
  for (const key of Object.keys(input)) {
    if (!(TOOLS_FIELDS as readonly string[]).includes(key)) {
      // The allowed fields in the message and the detail (issue 24 item 5; docs/fidelity.md).
      const allowed = TOOLS_FIELDS.join(', ');
      return reject(
        400,
        suffixed.unknownToolsField(key),
        `unknown field ${key} in ${field}; allowed: ${allowed}`,
        `${field}.${key}: not a tools field (allowed: ${allowed})`,
      );
    }
  }
  const out: ToolsObject = { servers: [], inline: [] };
  if (input.servers !== undefined && input.servers !== null) {
    if (!isStringArray(input.servers))
      return badShape(`${field}.servers`, 'expected an array of server ids');
    const servers = [...new Set(input.servers)];
    if (servers.length > Limits.mcpServersPerSession) {
      return reject(
        400,
        ErrorCode.tooManyMcpServers,
        `at most ${Limits.mcpServersPerSession} servers`,
      );
    }
    out.servers = servers;
  }
  if (input.inline !== undefined && input.inline !== null) {
    if (!Array.isArray(input.inline))
      return badShape(`${field}.inline`, 'expected an array of tool definitions');
    if (input.inline.length > Limits.toolsPerSession) {
      return reject(400, ErrorCode.tooManyTools, `at most ${Limits.toolsPerSession} tools`);
    }
    if (input.inline.length > 0 && 'agentHook' in opts && !opts.agentHook) {
      return reject(
        400,
        ErrorCode.inlineToolsRequireAgentHook,
        'inline tools are run by the tenant hook: send agent.hook',
      );
    }
    for (const def of input.inline) {
      const r = validateToolDefinition(def, `${field}.inline`);
      if (!r.ok) return r;
      out.inline.push(r.value);
    }
    const conflict = firstDuplicate(out.inline.map((t) => t.name));
    if (conflict) return toolNameConflict(conflict);
  }
  if (input.allow !== undefined && input.allow !== null) {
    if (!Array.isArray(input.allow) || !input.allow.every((s) => typeof s === 'string')) {
      return badShape(`${field}.allow`, 'expected an array of tool names');
    }
    out.allow = input.allow as string[];
  }
  if (input.max_calls !== undefined && input.max_calls !== null) {
    const m = input.max_calls;
    if (
      typeof m !== 'number' ||
      !Number.isInteger(m) ||
      m < Limits.maxCallsMin ||
      m > Limits.maxCallsMax
    ) {
      return reject(
        400,
        ErrorCode.invalidMaxCalls,
        `max_calls must be an integer from ${Limits.maxCallsMin} to ${Limits.maxCallsMax}`,
      );
    }
    out.max_calls = m;
  }
  if (input.history !== undefined && input.history !== null) {
    if (typeof input.history !== 'boolean')
      return badShape(`${field}.history`, 'expected a boolean');
    out.history = input.history;
  }
  return accept(out);
}

function firstDuplicate(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) return n;
    seen.add(n);
  }
  return undefined;
}

const toolNameConflict = (name: string): ValidationFailure =>
  reject(409, ErrorCode.toolNameConflict, `two tools are named ${name}`);

/** Defaults of spec 2: `max_calls` 20, `history` true. */
export function toolsSettings(t: ToolsObject): { max_calls: number; history: boolean } {
  return { max_calls: t.max_calls ?? Limits.maxCallsDefault, history: t.history ?? true };
}

/**
 * `extra_tools` merges onto the resolved tools (spec 4.5): servers are united, an extra
 * inline tool replaces a base tool of the same name ("extra wins a name collision"), and
 * scalar settings sent in the extra object win. Re-checks the server and tool counts.
 */
export function mergeTools(base: ToolsObject | null, extra: ToolsObject): Validation<ToolsObject> {
  const b = base ?? { servers: [], inline: [] };
  const servers = [...new Set([...b.servers, ...extra.servers])];
  if (servers.length > Limits.mcpServersPerSession) {
    return reject(
      400,
      ErrorCode.tooManyMcpServers,
      `at most ${Limits.mcpServersPerSession} servers`,
    );
  }
  const extraNames = new Set(extra.inline.map((t) => t.name));
  const inline = [...b.inline.filter((t) => !extraNames.has(t.name)), ...extra.inline];
  if (inline.length > Limits.toolsPerSession)
    return reject(400, ErrorCode.tooManyTools, `at most ${Limits.toolsPerSession} tools`);
  const out: ToolsObject = { servers, inline };
  const allow = extra.allow ?? b.allow;
  if (allow) out.allow = allow;
  const maxCalls = extra.max_calls ?? b.max_calls;
  if (maxCalls !== undefined) out.max_calls = maxCalls;
  const history = extra.history ?? b.history;
  if (history !== undefined) out.history = history;
  return accept(out);
}

/**
 * The final check at mint, over the names of every tool resolved from servers and inline
 * definitions after `allow` (spec 7): a name twice is 409 `tool_name_conflict`; more than 16
 * is `too_many_tools`; `tools` sent but nothing resolved is `no_tools_resolved`.
 */
export function checkResolvedTools(
  names: readonly string[],
  toolsSent: boolean,
): Validation<string[]> {
  const dup = firstDuplicate(names);
  if (dup) return toolNameConflict(dup);
  if (names.length > Limits.toolsPerSession)
    return reject(400, ErrorCode.tooManyTools, `at most ${Limits.toolsPerSession} tools`);
  if (toolsSent && names.length === 0)
    return reject(400, ErrorCode.noToolsResolved, 'tools were sent but resolved to nothing');
  return accept([...names]);
}

/** Apply an `allow` filter to resolved names (spec 2: name filter over everything resolved). */
export function applyAllow<T extends { name: string }>(
  tools: readonly T[],
  allow: readonly string[] | undefined,
): T[] {
  return allow ? tools.filter((t) => allow.includes(t.name)) : [...tools];
}

/** spec 7: tools plus context over 128 KB is `agent_payload_too_large`. */
export function checkAgentPayload(tools: unknown, context: unknown): Validation<true> {
  const size = serializedBytes(tools ?? null) + serializedBytes(context ?? null);
  if (size > Limits.toolsPlusContextBytes) {
    return reject(
      400,
      ErrorCode.agentPayloadTooLarge,
      `tools plus context are over ${Limits.toolsPlusContextBytes} bytes`,
    );
  }
  return accept(true);
}

/**
 * A stored `tools_json` (string or object) as a tools object, or null when it is
 * malformed: spec 7 says a malformed stored tools_json never fails a mint (the session
 * runs without tools).
 */
export function parseStoredTools(stored: unknown): ToolsObject | null {
  let value = stored;
  if (typeof stored === 'string') {
    try {
      value = JSON.parse(stored);
    } catch {
      return null;
    }
  }
  if (value === null || value === undefined) return null;
  const r = validateTools(value, { field: 'tools_json' });
  return r.ok ? r.value : null;
}
