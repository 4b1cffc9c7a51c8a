import type { Command } from 'commander';
import { Command as CommandClass, CommanderError } from './commander.js';
import { folderGroups, HELP_SECTION, loadRegistry } from './groups.js';
import { registerGroup } from './define.js';
import { createContext, type CliContext } from './context.js';
import { cliName } from './cli-name.js';
import { CliError, ExitCode } from './exit-codes.js';
import { formatApiError, isApiResponseError, missingPersona, type ApiErrorLike } from './errors.js';
import { configureHelpOutput } from './help.js';
import { fitLines } from './wrap.js';
import { globalOptions, PROGRAM_DESCRIPTION } from './top-help.js';
import type { Io } from './output.js';

import { CLI_VERSION } from './version.js';

export { CLI_VERSION };

/** Global options that take a value: skipped when looking for the command word. */
const VALUE_FLAGS = new Set(['--base-url', '--api-key', '--workspace', '--profile', '--origin']);

/**
 * The top-level command word of argv (`sessions` in `--json sessions mint`), or the word
 * after `help` (`avatar help sessions`); undefined for `avatar`, `--help`, `--version`.
 */
export function commandWord(argv: string[]): string | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === '--') {
      if (argv[i + 1] !== undefined) words.push(argv[i + 1]!);
      break;
    }
    if (VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-')) words.push(a);
    if (words.length === 1 && words[0] !== 'help') break;
  }
  return words[0] === 'help' ? words[1] : words[0];
}

/**
 * The program with the commands argv needs (issue 7 item 12): the command word's modules
 * and generated commands; every other group is a name and a description only, enough for
 * `avatar --help` and for commander's "did you mean". An unlisted word loads everything.
 */
export async function buildProgram(
  io: Io,
  argv: string[] = [],
): Promise<{ program: Command; cli: CliContext }> {
  const program = new CommandClass('avatar').description(PROGRAM_DESCRIPTION).version(CLI_VERSION);
  for (const [flags, description] of globalOptions) program.option(flags, description);
  // After a mistake, one line saying where help is, not the whole help: at 30 rows a
  // screen of options pushed the error itself (and its "did you mean") off screen.
  program.showHelpAfterError('(avatar --help lists the commands)').exitOverride();
  const cut = argv.indexOf('--');
  const jsonArg = (cut >= 0 ? argv.slice(0, cut) : argv).includes('--json');
  configureHelpOutput(program, io, jsonArg);
  const cli = createContext(program, io);
  const word = commandWord(argv);
  const commandGroups = await loadRegistry();
  const known = commandGroups.find((g) => g.name === word);
  const wanted = word === undefined ? [] : known && !known.wholeTree ? [known] : commandGroups;
  // The generated commands as data (and the mint flags of sessions mint/live, demo):
  // help and usage errors never load the contract's schemas (src/cli/command-manifest.ts).
  const manifest =
    word === undefined ? [] : await (await import('./command-manifest.js')).loadManifest();
  // Each wanted group's definitions, from the folders that define it (src/cli/groups.ts).
  const registered = new Set<unknown>();
  for (const g of wanted) {
    for (const folder of g.folders) {
      for (const def of await folderGroups(folder))
        if (def.name === g.name) registerGroup(program, def, cli, registered);
    }
  }
  if (word !== undefined) {
    const { registerGeneratedCommands } = await import('./generated.js');
    registerGeneratedCommands(
      program,
      cli,
      known && !known.wholeTree ? known.name : undefined,
      manifest,
    );
  }
  // Names only for the rest, in the listed order (a placeholder is never run: its word
  // would have loaded the real group).
  for (const g of commandGroups) {
    if (!program.commands.some((c) => c.name() === g.name))
      program.command(g.name).description(g.description);
  }
  // One description per group, whichever module created it (help reads the same either way).
  for (const c of program.commands as Command[]) {
    const g = commandGroups.find((x) => x.name === c.name());
    if (g && c.commands.length > 0) c.description(g.description);
  }
  const order = new Map(commandGroups.map((g, i) => [g.name, i]));
  const rank = (c: Command) => order.get(c.name()) ?? commandGroups.length;
  (program.commands as Command[]).sort((a, b) => rank(a) - rank(b));
  for (const c of program.commands as Command[]) {
    const g = commandGroups.find((x) => x.name === c.name());
    if (g) c.helpGroup(g.section);
  }
  program.commandsGroup(HELP_SECTION).helpCommand(true);
  // Subcommands inherit output routing and throw instead of exiting.
  const walk = (c: Command, path: string) => {
    c.exitOverride();
    c.showHelpAfterError(`(avatar ${path} --help shows the usage)`);
    configureHelpOutput(c, io, jsonArg);
    c.commands.forEach((sub) => walk(sub, `${path} ${sub.name()}`));
  };
  program.commands.forEach((c) => walk(c, c.name()));
  // The HTTP client (undici) loads only when a command runs, never for help or a usage error.
  program.hook('preAction', () => cli.ready());
  return { program, cli };
}

/**
 * Run the CLI with argv (without node and script) and injected streams; returns the exit
 * code. Only bin/avatar.js turns it into the process exit code.
 */
export async function run(argv: string[], partial: Partial<Io> = {}): Promise<number> {
  const io: Io = {
    stdout: partial.stdout ?? process.stdout,
    stderr: partial.stderr ?? process.stderr,
    stdin: partial.stdin ?? process.stdin,
    env: partial.env ?? process.env,
    cwd: partial.cwd ?? process.cwd(),
  };
  const { program, cli } = await buildProgram(io, argv);
  const cut = argv.indexOf('--');
  const json = () =>
    cli.globals().json === true || (cut >= 0 ? argv.slice(0, cut) : argv).includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (e) {
    return await reportFailure(e, io, cli, json());
  }
}

/**
 * The `error` of the CLI's own --json envelope (docs/cli.md "Output"): usage, network,
 * interrupted, internal by exit code; `cli_error` for a failure the service caused that the
 * CLI reports in its own words (exit 3/4: an edge that refused a session).
 */
function cliErrorCode(code: number): string {
  switch (code) {
    case ExitCode.usage:
      return 'usage';
    case ExitCode.interrupted:
      return 'interrupted';
    case ExitCode.network:
      return 'network';
    case ExitCode.internal:
      return 'internal';
    default:
      return 'cli_error';
  }
}

/**
 * `--persona eva`: the stock persona the user most likely meant, from the gallery (one
 * request, only on this error; no suggestion when the gallery cannot be read).
 */
async function suggestPersona(e: ApiErrorLike, cli: CliContext): Promise<void> {
  const wanted = missingPersona(e);
  if (!wanted) return;
  let c: ReturnType<CliContext['client']> | undefined;
  try {
    c = cli.client();
    const res = await c.call('gallery.list', {});
    const list = (res.body as { avatars?: { id?: unknown }[] }).avatars;
    const ids = (Array.isArray(list) ? list : [])
      .map((p) => p.id)
      .filter((id): id is string => typeof id === 'string');
    const { closest } = await import('./body-issue.js');
    e.suggestion = closest(wanted, ids);
  } catch {
    // no gallery, no suggestion
  } finally {
    await c?.close();
  }
}

/** The terminal's width for messages on stderr; 80 off a terminal. */
const width = (io: Io) =>
  io.stderr.isTTY && (io.stderr.columns ?? 0) >= 40 ? io.stderr.columns! : 80;

/** One failure on stderr: a line for humans, or with --json the API's error envelope. */
async function reportFailure(e: unknown, io: Io, cli: CliContext, json: boolean): Promise<number> {
  const envelope = (error: string, message: string, status?: number) =>
    io.stderr.write(JSON.stringify({ error, message, ...(status ? { status } : {}) }) + '\n');
  if (e instanceof CommanderError) {
    if (
      e.code === 'commander.helpDisplayed' ||
      e.code === 'commander.version' ||
      e.code === 'commander.help'
    )
      return ExitCode.ok;
    // commander has already printed its message (and help) for a human; not with --json.
    if (json && e.exitCode !== 0) envelope('usage', e.message.replace(/^error: /, ''));
    return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  if (e instanceof CliError) {
    if (json) {
      if (e.envelope) io.stderr.write(JSON.stringify(e.envelope) + '\n');
      else envelope(cliErrorCode(e.exitCode), e.message);
    } else if (!e.alreadyShown) io.stderr.write(`${fitLines(`error: ${e.message}`, width(io))}\n`);
    return e.exitCode;
  }
  if (isApiResponseError(e)) {
    if (json) io.stderr.write(JSON.stringify(e.body ?? { error: e.code, status: e.status }) + '\n');
    else {
      await suggestPersona(e, cli);
      io.stderr.write(formatApiError(e, width(io)) + '\n');
    }
    return e.status >= 500 ? ExitCode.apiServerError : ExitCode.apiClientError;
  }
  const code =
    (e as NodeJS.ErrnoException).code ?? (e as { cause?: NodeJS.ErrnoException }).cause?.code;
  if (
    code &&
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR/.test(
      code,
    )
  ) {
    const conn = (() => {
      try {
        return cli.connection();
      } catch {
        return undefined;
      }
    })();
    // Loaded here: config.js stays off the paths that never need it (help, usage errors).
    const { unreachableHint } = await import('./config.js');
    const why = conn
      ? unreachableHint(conn, cliName(io))
      : `Is the emulator running?\n  start one:  ${cliName(io)} emulator start`;
    const msg = `cannot reach ${conn?.baseUrl ?? 'the service'} (${code}).\n${why}`;
    if (json) envelope('network', msg);
    else io.stderr.write(`${fitLines(`error: ${msg}`, width(io))}\n`);
    return ExitCode.network;
  }
  if (json) envelope('internal', `unexpected failure: ${(e as Error).message ?? String(e)}`);
  else io.stderr.write(`error: unexpected failure: ${(e as Error).stack ?? String(e)}\n`);
  return ExitCode.internal;
}
