import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { pathParamNames } from '../contract/operation.js';
import type { OperationEntry } from './command-manifest.js';
import { describeFlag, placeholder } from './flag-docs.js';
import type { CliContext } from './context.js';
import { CliError, ExitCode } from './exit-codes.js';
import { bodyIssueText } from './body-issue.js';
import { readData } from './read-data.js';
import { coerce, type FieldFlag } from './schema-flags.js';

export { readData } from './read-data.js';

export function addFieldOption(cmd: Command, f: FieldFlag): void {
  const desc = describeFlag(f);
  if (f.kind === 'boolean') {
    const what = desc.replace(/ \(required\)$/, '').replace(/^boolean[,;]?\s*/, '');
    cmd.addOption(new Option(`--${f.flag}`, `${what ? `${what}; ` : ''}sends ${f.field}: true`));
    cmd.addOption(new Option(`--no-${f.flag}`, `sends ${f.field}: false`));
    return;
  }
  const opt = new Option(`--${f.flag} ${placeholder(f)}`, desc);
  if (f.choices) opt.choices(f.choices);
  cmd.addOption(opt);
}

const optKey = (flag: string) => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Collect the request body from `--data` and per-field flags (flags win). */
function collectFields(
  flags: FieldFlag[],
  opts: Record<string, unknown>,
  base: unknown,
  cwd: string,
): Record<string, unknown> {
  const body: Record<string, unknown> =
    base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as object) } : {};
  for (const f of flags) {
    const v = opts[optKey(f.flag)];
    if (v === undefined) continue;
    try {
      body[f.field] = coerce(f, v, cwd);
    } catch (e) {
      throw new CliError((e as Error).message, ExitCode.usage);
    }
  }
  return body;
}

/**
 * Build `avatar <group> <verb>` for every operation of the contract that has `cli`
 * metadata: path parameters become positional arguments (`{wsId}` defaults to the
 * configured workspace), body and query fields become flags, `--data` takes a whole body.
 * New operations get their command, flags and help by construction. The commands are built
 * from the manifest (plain data, src/cli/command-manifest.ts); an action loads the
 * operation's schemas when it runs.
 */
export function registerGeneratedCommands(
  program: Command,
  cli: CliContext,
  only: string | undefined,
  entries: readonly OperationEntry[],
): void {
  const groups = new Map<string, Command>();
  for (const entry of entries) {
    if (!entry.group || (only !== undefined && entry.group !== only)) continue;
    const { group, verb } = entry;
    let g =
      groups.get(group) ??
      (program.commands.find((c) => c.name() === group) as Command | undefined);
    if (!g) {
      // main.ts gives the group its one description from commandGroups (no import of that table here: it loads us).
      g = program
        .command(group)
        .description(`${group} (${entry.path.split('/').slice(0, 4).join('/')}...)`);
    }
    groups.set(group, g);
    // `queue status`: a command of a sub-group (made here when no hand-written one exists).
    const [head, leaf] = verb.split(' ') as [string, string | undefined];
    let parent: Command = g;
    if (leaf)
      parent =
        g.commands.find((c) => c.name() === head) ??
        g.command(head).description(`${head} (${entry.path})`);
    const name = leaf ?? head;
    if (parent.commands.some((c) => c.name() === name)) continue; // a hand-written command wins
    const pathParams = pathParamNames(entry.path);
    const positional = pathParams.filter((p) => p !== 'wsId');
    const cmd = parent
      .command(name)
      .description(`${entry.summary}  [${entry.method.toUpperCase()} ${entry.path}]`);
    for (const p of positional) cmd.argument(`<${p}>`);
    const bodyFlags = entry.body ?? [];
    const queryFlags = entry.query;
    for (const f of [...bodyFlags, ...queryFlags]) addFieldOption(cmd, f);
    if (entry.body)
      cmd.option(
        '--data <json|@file>',
        'whole request body as JSON: inline, @file or @- for stdin (flags override its fields)',
      );
    if (entry.binary)
      cmd.option('-o, --out <file>', 'write the response body to this file (- for stdout)');
    cmd.action(async (...args: unknown[]) => {
      const { operationById } = await import('../contract/operations/index.js');
      const op = operationById(entry.id);
      if (!op)
        throw new Error(
          `the command manifest names ${entry.id}, which the contract lacks (rebuild: npm run build)`,
        );
      const opts = cmd.opts<Record<string, unknown>>();
      const params: Record<string, string> = {};
      positional.forEach((p, i) => (params[p] = String(args[i])));
      if (pathParams.includes('wsId')) params.wsId = await cli.workspace();
      const input: {
        params: Record<string, string>;
        query?: Record<string, unknown>;
        body?: unknown;
      } = { params };
      if (op.body) {
        const base = typeof opts.data === 'string' ? readData(opts.data, cli.io.cwd) : undefined;
        if (
          base !== undefined &&
          (base === null || typeof base !== 'object' || Array.isArray(base))
        ) {
          throw new CliError('--data must be a JSON object (the request body)', ExitCode.usage);
        }
        input.body = collectFields(bodyFlags, opts, base, cli.io.cwd);
        // The same schema the service validates with: a missing or mistyped field is a
        // usage error here (exit 2), before any request is sent.
        const check = op.body.safeParse(input.body);
        if (!check.success) {
          throw new CliError(
            bodyIssueText(check.error.issues[0]!, input.body, bodyFlags, 'body'),
            ExitCode.usage,
          );
        }
      }
      if (op.query) input.query = collectFields(queryFlags, opts, undefined, cli.io.cwd);
      const res = await cli.client().call(op, input as never);
      if (Buffer.isBuffer(res.body)) {
        if (opts.out === '-') cli.io.stdout.write(res.body);
        else if (typeof opts.out === 'string') {
          try {
            writeFileSync(resolve(cli.io.cwd, opts.out), res.body);
          } catch (e) {
            throw new CliError(`cannot write ${opts.out}: ${(e as Error).message}`, ExitCode.usage);
          }
          // On stdout, as speak, tts and images report the file they wrote (issue 24 item 12).
          const type = String(res.headers['content-type'] ?? '').split(';')[0];
          const bytes = res.body.length;
          cli.print(
            { file: opts.out, bytes, content_type: type },
            () => `wrote ${String(opts.out)} (${bytes} bytes, ${type})`,
          );
        } else if (cli.io.stdout.isTTY) {
          throw new CliError(
            `the response is binary (${res.headers['content-type']}): pass --out FILE, or --out - to write it here anyway`,
            ExitCode.usage,
          );
        } else cli.io.stdout.write(res.body);
        return;
      }
      if (res.status === 204 || res.body === undefined) {
        if (!cli.globals().json) cli.io.stdout.write('ok\n');
        return;
      }
      // cli.print gives the view the terminal's width (none on a pipe: whole lines).
      cli.print(res.body, (await import('./human-views.js')).humanViews[entry.id]);
    });
  }
}
