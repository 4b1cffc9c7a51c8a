import { Command, CommanderError } from 'commander';
import { ApiResponseError } from '../client/client.js';
import { commandModules } from './commands/index.js';
import { createContext } from './context.js';
import { CliError, ExitCode } from './exit-codes.js';
import { registerGeneratedCommands } from './generated.js';
import type { Io } from './output.js';

export const CLI_VERSION = '0.1.0';

export function buildProgram(io: Io): { program: Command; cli: ReturnType<typeof createContext> } {
  const program = new Command('avatar')
    .description('CLI and local emulator of the live avatar service')
    .version(CLI_VERSION)
    .option('--base-url <url>', 'service base URL (env AVATAR_BASE_URL; default: the running local emulator)')
    .option('--api-key <key>', 'API key (env AVATAR_API_KEY)')
    .option('--workspace <id>', 'workspace id for workspace routes (env AVATAR_WORKSPACE_ID)')
    .option('--profile <name>', 'named profile from the config file (env AVATAR_PROFILE)')
    .option('--json', 'print response bodies as JSON, unchanged')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });
  const cli = createContext(program, io);
  for (const m of commandModules) m.register(program, cli);
  registerGeneratedCommands(program, cli);
  // Subcommands inherit output routing and throw instead of exiting.
  const walk = (c: Command) => {
    c.exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
    c.commands.forEach(walk);
  };
  program.commands.forEach(walk);
  return { program, cli };
}

function errorBodyLine(err: ApiResponseError): string {
  const b = (err.body ?? {}) as Record<string, unknown>;
  const parts = [`error: ${err.code} (HTTP ${err.status})`];
  if (typeof b.message === 'string') parts.push(b.message);
  if (typeof b.detail === 'string') parts.push(`detail: ${b.detail}`);
  if (b.error && typeof b.error === 'object') {
    const inner = b.error as Record<string, unknown>;
    if (typeof inner.message === 'string') parts.push(inner.message);
  }
  return parts.join(' — ');
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
  const { program, cli } = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return ExitCode.ok;
      return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (e instanceof CliError) {
      io.stderr.write(`error: ${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof ApiResponseError) {
      if (cli.globals().json) io.stderr.write(JSON.stringify(e.body) + '\n');
      else io.stderr.write(errorBodyLine(e) + '\n');
      return e.status >= 500 ? ExitCode.apiServerError : ExitCode.apiClientError;
    }
    const code = (e as NodeJS.ErrnoException).code ?? (e as { cause?: NodeJS.ErrnoException }).cause?.code;
    if (code && /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR/.test(code)) {
      const where = (() => {
        try {
          return cli.connection().baseUrl;
        } catch {
          return 'the service';
        }
      })();
      io.stderr.write(`error: cannot reach ${where} (${code}). Is the emulator running? (avatar emulator start)\n`);
      return ExitCode.network;
    }
    io.stderr.write(`error: unexpected failure: ${(e as Error).stack ?? String(e)}\n`);
    return ExitCode.internal;
  }
}
