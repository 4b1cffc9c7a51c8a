/**
 * `/_emulator/scripts` (operator routes; docs/testing.md "Conversation scripts"): load,
 * list and clear the loaded scripts. A load is all or nothing: any problem in any script of
 * the body is 400 `invalid_request`, detail `request:LINE: field: reason` (the line in the
 * body as sent, `field` and `reason` in the answer too), and nothing changes.
 */
import { BUILTIN_SERVERS } from '../../contract/builtins.js';
import { scriptsClear, scriptsList, scriptsLoad } from '../../contract/operations/operator.js';
import type { App, EmulatorContext } from '../context.js';
import { ApiError } from '../../server/api-error.js';
import { implement } from '../http/router.js';
import { operatorLog } from '../operator/log.js';
import { offeredTools, type McpRow } from '../tools/registry.js';
import { toolSql } from '../tools/sql.js';
import { checkTools, parseScripts, ScriptError, type ReadScript } from './load.js';
import type { ScriptRegistry } from './registry.js';

/**
 * The tools a script's `tool` step may name besides its own `tools`: the built-in tools and
 * the tools every registered MCP server offers now (any workspace: a script is not a
 * workspace's).
 */
export function knownTools(ctx: EmulatorContext): (name: string) => boolean {
  const names = new Set(Object.values(BUILTIN_SERVERS).flatMap((defs) => defs.map((d) => d.name)));
  for (const row of toolSql(ctx.db).listMcpServers.all() as McpRow[])
    for (const t of offeredTools(row) ?? []) names.add(t.name);
  return (name) => names.has(name);
}

/** Check the tools of scripts already read, then load them all (all or nothing). */
export function loadChecked(
  ctx: EmulatorContext,
  registry: ScriptRegistry,
  read: readonly ReadScript[],
): ReturnType<ScriptRegistry['load']> {
  checkTools(read, knownTools(ctx));
  const loaded = registry.load(read);
  for (const s of loaded)
    operatorLog(ctx).add('event', {
      event: 'script.loaded',
      data: { name: s.name, source: s.source },
    });
  return loaded;
}

export function registerScriptRoutes(
  app: App,
  ctx: EmulatorContext,
  registry: ScriptRegistry,
): void {
  implement(app, ctx, scriptsList, () => ({ data: registry.list() }));

  implement(app, ctx, scriptsLoad, ({ raw }) => {
    try {
      const read = parseScripts(Buffer.from(raw).toString('utf8'), 'request');
      const loaded = loadChecked(ctx, registry, read);
      return { loaded: loaded.map((s) => s.name), data: registry.list() };
    } catch (e) {
      if (!(e instanceof ScriptError)) throw e;
      throw new ApiError(400, 'invalid_request', {
        message: 'the scripts were not loaded (nothing changed)',
        detail: e.message,
        extra: e.field ? { field: e.field, reason: e.reason } : {},
      });
    }
  });

  implement(app, ctx, scriptsClear, () => {
    const cleared = registry.clear();
    operatorLog(ctx).add('event', { event: 'script.cleared', data: { cleared } });
    return { cleared };
  });
}
