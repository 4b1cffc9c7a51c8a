/**
 * `avatar tools validate FILE`: check a tools object locally with the service's own
 * validator (src/contract/validators) and print the error code the service would answer.
 * The file is a tools object, or a mint-style body `{ tools?, extra_tools?, agent? }`
 * (then inline tools need `agent.hook`, as at mint).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { validateAgent } from '../../contract/validators/agent.js';
import { isPlainObject, type ValidationFailure } from '../../contract/validators/result.js';
import {
  mergeTools,
  toolsSettings,
  validateTools,
  type ToolsObject,
} from '../../contract/validators/tools.js';
import type { CliContext, CommandModule } from '../context.js';
import { addCommand, defineCommand } from '../define.js';
import { CliError, ExitCode } from '../exit-codes.js';

/**
 * The answer the service would give, as a failure: one line for humans, or with --json the
 * service's own error envelope `{ error, detail, message, status }` on stderr (stdout stays empty,
 * as for any failing command).
 */
function fail(_cli: CliContext, f: ValidationFailure): never {
  // Always with `detail` (docs/cli.md "Output"): the validator's, else the message.
  const envelope = {
    error: f.error,
    detail: f.detail ?? f.message,
    message: f.message,
    status: f.status,
  };
  throw new CliError(
    `${f.error}${f.detail ? ` (detail: ${f.detail})` : ''} — HTTP ${f.status}: ${f.message}`,
    ExitCode.apiClientError,
    envelope,
  );
}

export function validateToolsFile(
  cli: CliContext,
  value: unknown,
  opts: { agentHook?: string },
): ToolsObject {
  const mintShape =
    isPlainObject(value) && ('tools' in value || 'extra_tools' in value || 'agent' in value);
  if (!mintShape) {
    const hook =
      'agentHook' in opts && opts.agentHook !== undefined ? { agentHook: opts.agentHook } : {};
    const r = validateTools(value, { field: 'tools', ...hook });
    if (!r.ok) fail(cli, r);
    return r.value;
  }
  const body = value as Record<string, unknown>;
  const agent = validateAgent(body.agent);
  if (!agent.ok) fail(cli, agent);
  const agentHook = (agent.value?.hook as string | undefined) ?? opts.agentHook ?? null;
  let tools: ToolsObject = { servers: [], inline: [] };
  for (const field of ['tools', 'extra_tools'] as const) {
    if (body[field] === undefined) continue;
    const r = validateTools(body[field], { field, agentHook });
    if (!r.ok) fail(cli, r);
    const merged =
      field === 'tools' ? { ok: true as const, value: r.value } : mergeTools(tools, r.value);
    if (!merged.ok) fail(cli, merged);
    tools = merged.value;
  }
  return tools;
}

export const toolsCommands: CommandModule = {
  register(program: Command, cli: CliContext) {
    const tools =
      (program.commands.find((c) => c.name() === 'tools') as Command | undefined) ??
      program.command('tools').description('tools objects');
    addCommand(tools, validateCommand, cli);
  },
};

/** `avatar tools validate FILE`. */
const validateCommand = defineCommand({
  name: 'validate',
  summary:
    'check a tools object (or a mint body with tools/extra_tools/agent) with the service validator',
  args: { file: { usage: '<file>', description: 'JSON file, or - for stdin' } },
  options: {
    agentHook: {
      flags: '--agent-hook <url>',
      description: 'check inline tools as at mint, with this agent.hook',
    },
  },
  run({ args: { file }, options: o, cli }) {
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : resolve(cli.io.cwd, file), 'utf8');
    } catch (e) {
      throw new CliError(`cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      fail(cli, {
        ok: false,
        status: 400,
        error: 'invalid_json',
        message: `${file} is not valid JSON`,
      });
    }
    const t = validateToolsFile(cli, value, o);
    const settings = toolsSettings(t);
    const summary = {
      ok: true,
      servers: t.servers,
      inline: t.inline.map((d) => ({
        name: d.name,
        timeout_ms: d.timeout_ms,
        fast: d.fast,
        idempotent: d.idempotent,
      })),
      ...(t.allow ? { allow: t.allow } : {}),
      max_calls: settings.max_calls,
      history: settings.history,
    };
    cli.print(summary, () =>
      [
        `ok: ${t.inline.length} inline tool(s), ${t.servers.length} server(s), max_calls ${settings.max_calls}, history ${settings.history}`,
        ...t.inline.map(
          (d) =>
            `  ${d.name}  timeout ${d.timeout_ms} ms${d.fast ? ', fast' : ''}${d.idempotent ? ', idempotent' : ''}`,
        ),
      ].join('\n'),
    );
  },
});
