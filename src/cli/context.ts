import type { Command } from 'commander';
import { AvatarClient } from '../client/client.js';
import { resolveConnection, type Connection, type GlobalFlags } from './config.js';
import { CliError, ExitCode } from './exit-codes.js';
import { printJson, renderHuman, type Io } from './output.js';

/** What every command gets: the streams, the global flags, and a connected client. */
export interface CliContext {
  io: Io;
  /** Global flags as parsed (`--base-url`, `--api-key`, `--workspace`, `--profile`, `--json`). */
  globals(): GlobalFlags & { json?: boolean };
  /** Connection settings (flags > env > profile > local emulator); usage error if none. */
  connection(): Connection;
  /** A client on that connection (optionally with another key or an Origin). */
  client(opts?: { apiKey?: string; origin?: string }): AvatarClient;
  /** The workspace id for `{wsId}` routes: --workspace, env, profile or the emulator's. */
  workspaceId(): string;
  /** Print a result: the JSON body unchanged with --json, else a table or key/value lines. */
  print(body: unknown, human?: (body: unknown) => string): void;
  /** A line for humans on stderr (progress, hints); silent with --json. */
  note(line: string): void;
  /** Resolves when the user presses Ctrl-C (SIGINT) or the process gets SIGTERM. */
  onInterrupt(fn: () => void): () => void;
}

/** A hand-written command group: registers its commands on the program. */
export interface CommandModule {
  register(program: Command, cli: CliContext): void;
}

function isHttpUrl(u: string): boolean {
  try {
    const { protocol } = new URL(u);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function createContext(program: Command, io: Io): CliContext {
  const clients: AvatarClient[] = [];
  const globals = () => program.opts() as GlobalFlags & { json?: boolean };
  const connection = (): Connection => {
    const conn = resolveConnection(globals(), io.env);
    if (!conn) {
      const named = globals().profile ?? io.env.AVATAR_PROFILE;
      throw new CliError(
        named
          ? `no profile named ${named} (avatar config list)`
          : 'no service to talk to: start one with `avatar emulator start`, or pass --base-url / set AVATAR_BASE_URL',
        ExitCode.usage,
      );
    }
    if (!isHttpUrl(conn.baseUrl)) {
      const where =
        conn.source === 'flags' ? '--base-url' : conn.source === 'environment' ? 'AVATAR_BASE_URL' : `the base_url of ${conn.source}`;
      throw new CliError(`${where} is not an http(s) URL: ${conn.baseUrl} (e.g. http://127.0.0.1:4780)`, ExitCode.usage);
    }
    return conn;
  };
  return {
    io,
    globals,
    connection,
    client(opts = {}) {
      const conn = connection();
      const c = new AvatarClient({ baseUrl: conn.baseUrl, apiKey: opts.apiKey ?? conn.apiKey, origin: opts.origin });
      clients.push(c);
      return c;
    },
    workspaceId() {
      const ws = connection().workspaceId;
      if (!ws) throw new CliError('this command needs a workspace: pass --workspace ID or set AVATAR_WORKSPACE_ID', ExitCode.usage);
      return ws;
    },
    print(body, human) {
      if (globals().json) printJson(io, body);
      else {
        // Fit tables to a terminal; pipes and files get every column.
        const width = io.stdout.isTTY ? io.stdout.columns : undefined;
        io.stdout.write((human ? human(body) : renderHuman(body, width)) + '\n');
      }
    },
    note(line) {
      if (!globals().json) io.stderr.write(line + '\n');
    },
    onInterrupt(fn) {
      process.on('SIGINT', fn);
      process.on('SIGTERM', fn);
      return () => {
        process.off('SIGINT', fn);
        process.off('SIGTERM', fn);
      };
    },
  };
}
