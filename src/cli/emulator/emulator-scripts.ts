import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { LoadedScript } from '../../contract/resources/script.js';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { renderTable } from '../output.js';
import { operatorCall, operatorPath } from './emulator-operator.js';
import { termWidth } from '../inference/inference-common.js';

/**
 * `avatar emulator scripts [load FILE... | clear]` (issue 29; docs/testing.md "Conversation
 * scripts"): the conversation scripts of a running emulator over `/_emulator/scripts`.
 * `load` reads each file here first (so a problem names the file and its line), then sends
 * them all in one request: all of them load, or none.
 */
/** The loaded scripts as a table that fits the terminal (columns that do not are named below it). */
const table = (data: LoadedScript[], width: number | undefined) =>
  data.length
    ? renderTable(
        data.map((s) => ({
          name: s.name,
          match: Object.keys(s.match).length ? JSON.stringify(s.match) : '(every session)',
          strict: s.strict,
          rules: s.rules,
          source: s.source,
        })),
        undefined,
        width,
      )
    : 'no scripts';

const readText = (path: string, name: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(
      `${name}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      ExitCode.usage,
    );
  }
};

export function registerScripts(group: Command, cli: CliContext): void {
  const scripts = group
    .command('scripts')
    .description(
      'conversation scripts: what the avatar says and does, rule by rule (list; load FILE...; clear)',
    )
    .action(() => list());
  async function list(): Promise<void> {
    const r = await operatorCall<{ data: LoadedScript[] }>(
      cli,
      'GET',
      await operatorPath('scriptsList'),
    );
    cli.print(r, () => table(r.data, termWidth(cli)));
  }
  scripts
    .command('list')
    .description('the loaded scripts (the same as `avatar emulator scripts`)')
    .action(() => list());

  scripts
    .command('load')
    .argument('<file...>', 'script files (YAML or JSON: one script, or { scripts: [...] })')
    .description('load scripts (all or none); a script with a loaded name replaces it')
    .action(async (files: string[]) => {
      const { parseScripts, uniqueNames, ScriptError } = await import(
        '../../emulator/scripts/load.js'
      );
      const read = [];
      try {
        for (const f of files) read.push(...parseScripts(readText(resolve(cli.io.cwd, f), f), f));
        uniqueNames(read);
      } catch (e) {
        if (e instanceof ScriptError) throw new CliError(e.message, ExitCode.usage);
        throw e;
      }
      await cli.ready();
      const r = await cli
        .client()
        .raw<Record<string, unknown>>('POST', await operatorPath('scriptsLoad'), {
          body: { scripts: read.map((x) => x.script) },
        });
      if (r.status === 200) {
        const body = r.body as { loaded: string[]; data: LoadedScript[] };
        cli.print(
          body,
          () => `loaded ${body.loaded.join(', ')}\n${table(body.data, termWidth(cli))}`,
        );
        return;
      }
      // A problem only the emulator can see (an unknown tool): named in the file it came from.
      const b = (r.body ?? {}) as { field?: unknown; reason?: unknown; detail?: unknown };
      const m = typeof b.field === 'string' ? /^scripts\.(\d+)\.?(.*)$/.exec(b.field) : null;
      const from = m ? read[Number(m[1])] : undefined;
      if (m && from && typeof b.reason === 'string') {
        const rest = m[2] ? m[2].split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)) : [];
        const path = [...from.path, ...rest];
        throw new CliError(
          `${from.at(path)}: ${path.join('.') || '(top level)'}: ${b.reason}`,
          ExitCode.usage,
        );
      }
      const detail = typeof b.detail === 'string' ? ` ${b.detail}` : '';
      throw new CliError(
        `POST /_emulator/scripts answered ${r.status}${detail}`,
        r.status >= 500 ? ExitCode.apiServerError : ExitCode.apiClientError,
      );
    });

  scripts
    .command('clear')
    .description('forget every loaded script (running sessions keep theirs)')
    .action(async () => {
      await cli.ready();
      const r = await cli.client().raw('DELETE', await operatorPath('scriptsClear'), { body: {} });
      if (r.status !== 200)
        throw new CliError(
          `DELETE /_emulator/scripts answered ${r.status}`,
          ExitCode.apiClientError,
        );
      const n = (r.body as { cleared: number }).cleared;
      cli.print(r.body, () => `cleared ${n} script${n === 1 ? '' : 's'}`);
    });
}
