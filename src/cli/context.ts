import type { Command } from 'commander';
import type { AvatarClient } from '../client/client.js';
import type { InferenceClient } from '../client/inference.js';
import type { Connection, GlobalFlags } from './config.js';
import { cliName } from './cli-name.js';
import { CliError, ExitCode } from './exit-codes.js';
import type { Io } from './output.js';

/** What every command gets: the streams, the global flags, and a connected client. */
export interface CliContext {
  io: Io;
  /** Global flags as parsed (`--base-url`, `--api-key`, `--workspace`, `--profile`, `--origin`, `--json`). */
  globals(): GlobalFlags & { json?: boolean; origin?: string };
  /** Connection settings (flags > env > profile > local emulator); usage error if none. */
  connection(): Connection;
  /** Load what commands need to talk HTTP; main.ts awaits it before any action runs. */
  ready(): Promise<void>;
  /** A client on that connection (optionally with another key or an Origin; default `--origin`). */
  client(opts?: { apiKey?: string; origin?: string }): AvatarClient;
  /** The inference family's client (spec 4.12) on that connection. */
  inference(): InferenceClient;
  /** The workspace id for `{wsId}` routes: --workspace, env, profile or the emulator's (sync; no request). */
  workspaceId(): string;
  /**
   * Like workspaceId(), and when none is configured, the workspace a workspace-bound key
   * belongs to (one request: GET /api/v1/workspaces lists exactly that one).
   */
  workspace(): Promise<string>;
  /**
   * Print a result: the JSON body unchanged with --json, else a table or key/value lines, or
   * `human(body, width)`: `width` is the terminal's columns, undefined on a pipe or a file
   * (they get whole lines).
   */
  print(body: unknown, human?: (body: unknown, width: number | undefined) => string): void;
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

const NO_WORKSPACE =
  'this command needs a workspace: pass --workspace ID or set AVATAR_WORKSPACE_ID (a workspace-bound key implies its own)';

export function createContext(program: Command, io: Io): CliContext {
  // Loaded by ready() (before any action), never for help, version or a usage error.
  let clientModule: typeof import('../client/client.js') | undefined;
  let inferenceModule: typeof import('../client/inference.js') | undefined;
  let config: typeof import('./config.js') | undefined;
  let output: typeof import('./output.js') | undefined;
  const loaded = <T>(m: T | undefined): T => {
    if (!m) throw new Error('the CLI context was used before cli.ready()');
    return m;
  };
  const globals = () => program.opts() as GlobalFlags & { json?: boolean; origin?: string };
  const connection = (): Connection => {
    const { resolveConnectionOrWhy, describeEmulators } = loaded(config);
    const conn = resolveConnectionOrWhy(globals(), io.env, io.cwd);
    if (!('baseUrl' in conn)) {
      if (conn.missing === 'profile')
        throw new CliError(`no profile named ${conn.name} (avatar config list)`, ExitCode.usage);
      if (conn.missing === 'choice') {
        throw new CliError(
          `${conn.running.length} local emulators are running and none is this directory's:\n${describeEmulators(conn.running)}\n` +
            'Pick one with --base-url URL (its keys are found for you), run the CLI from\n' +
            'the directory of its data dir, or save one as a profile:\n' +
            '  avatar --base-url URL config set NAME --default',
          ExitCode.usage,
        );
      }
      throw new CliError(
        `no service to talk to.\n  start one:  ${cliName(io)} emulator start\n  or pass --base-url URL / set AVATAR_BASE_URL`,
        ExitCode.usage,
      );
    }
    if (!isHttpUrl(conn.baseUrl)) {
      const where =
        conn.source === 'flags'
          ? '--base-url'
          : conn.source === 'environment'
            ? 'AVATAR_BASE_URL'
            : `the base_url of ${conn.source}`;
      throw new CliError(
        `${where} is not an http(s) URL: ${conn.baseUrl} (e.g. http://127.0.0.1:4780)`,
        ExitCode.usage,
      );
    }
    return conn;
  };
  const ready = async () => {
    [clientModule, inferenceModule, config, output] = await Promise.all([
      clientModule ?? import('../client/client.js'),
      inferenceModule ?? import('../client/inference.js'),
      config ?? import('./config.js'),
      output ?? import('./output.js'),
    ]);
  };
  const client = (opts: { apiKey?: string; origin?: string } = {}): AvatarClient => {
    const conn = connection();
    return new (loaded(clientModule).AvatarClient)({
      baseUrl: conn.baseUrl,
      apiKey: opts.apiKey ?? conn.apiKey,
      origin: opts.origin ?? globals().origin,
    });
  };
  return {
    io,
    globals,
    connection,
    ready,
    client,
    inference: () => new (loaded(inferenceModule).InferenceClient)(client()),
    workspaceId() {
      const ws = connection().workspaceId;
      if (!ws) throw new CliError(NO_WORKSPACE, ExitCode.usage);
      return ws;
    },
    async workspace() {
      const conn = connection();
      if (conn.workspaceId) return conn.workspaceId;
      if (!conn.apiKey) throw new CliError(NO_WORKSPACE, ExitCode.usage);
      // A workspace-bound key lists exactly its own workspace (spec 4.2); a key that lists
      // several is not bound, and the user has to say which.
      await ready();
      const c = client();
      let listed: string[] = [];
      try {
        const res = await c.raw('GET', '/api/v1/workspaces');
        if (res.status < 400)
          listed = ((res.body as { data?: { id?: string }[] } | undefined)?.data ?? []).map((w) =>
            String(w.id),
          );
      } finally {
        await c.close();
      }
      if (listed.length === 1) return listed[0]!;
      throw new CliError(
        listed.length > 1
          ? `${NO_WORKSPACE}; this key sees ${listed.length} workspaces (avatar workspaces list)`
          : NO_WORKSPACE,
        ExitCode.usage,
      );
    },
    print(body, human) {
      const { printJson, renderHuman } = loaded(output);
      if (globals().json) printJson(io, body);
      else {
        // Fit a terminal; pipes and files get every column.
        const width = io.stdout.isTTY ? io.stdout.columns : undefined;
        io.stdout.write((human ? human(body, width) : renderHuman(body, width)) + '\n');
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
