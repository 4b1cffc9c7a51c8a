import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { bootstrap, type BootstrapKeys } from './bootstrap/bootstrap.js';
import { DrivableClock } from './clock.js';
import type { App, EmulatorContext } from './context.js';
import { getSetting, openDatabase, type Db } from './db/database.js';
import { applySeed, loadSeed, SeedError, type LoadedSeed } from './seed/apply.js';
import { readScriptFile, ScriptError, type ReadScript } from './scripts/load.js';
import { ScriptRegistry } from './scripts/registry.js';
import { loadChecked } from './scripts/routes.js';
import { FaultList } from './operator/faults.js';
import { buildServices, servicesNotBuilt } from './services.js';
import { operatorTokenFor } from './operator/operator-token.js';
import { answerClientError, closeServer, trackRequests, type RequestCount } from './http/server.js';
import { cryptoIds } from './ids.js';
import { defaultOptions, type EmulatorOptions } from './options.js';
import { optionProblems } from './option-limits.js';
import { loadSigningKey } from './signing/keys.js';
import { startFleet } from './fleet/spawn.js';
import { HostPolicy } from '../contract/hosts.js';
import { bindPolicy, hostGuardedServer } from '../edge/box/host-guard.js';
import { FILE_MODE, DIR_MODE, tightenDataDir } from '../edge/private-files.js';
import { alive } from './pid-alive.js';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures', import.meta.url));

export interface RunningEmulator {
  /** `http://host:port`, no trailing slash. */
  baseUrl: string;
  keys: BootstrapKeys;
  /** The operator credential of this start (`op_<hex>`); the bootstrap keys work too (docs/security.md). */
  operatorToken: string;
  app: App;
  ctx: EmulatorContext;
  stop(): Promise<void>;
}

/** A start-up failure the caller can act on (busy port, unusable data dir); `code` says which. */
export class EmulatorStartError extends Error {
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'EmulatorStartError';
  }
}

/**
 * Start the control plane (and, once it exists, its in-process edge boxes) on a real
 * socket. `port: 0` picks a free port; the resolved `baseUrl` says which. A failure part
 * way undoes what was set up (socket, store, data dir lock) before rejecting.
 */
export async function startEmulator(opts: Partial<EmulatorOptions> = {}): Promise<RunningEmulator> {
  const options: EmulatorOptions = { ...defaultOptions, ...opts };
  // Undone in reverse: later hooks (fleet, workers) first, then the socket, the store, the lock.
  const stops: (() => void | Promise<void>)[] = [];
  const undo = async () => {
    for (const fn of stops.splice(0).reverse()) await fn();
  };
  try {
    // Every option in range before anything starts (issue 7 item 4): a fleet that cannot
    // register must not leave a socket serving nothing.
    const problems = optionProblems(options);
    if (problems.length > 0)
      throw new EmulatorStartError(
        problems.join('; '),
        problems[0]!.startsWith('port ') ? 'EINVALIDPORT' : 'EINVALIDOPTION',
      );
    if (options.faults !== undefined) {
      const r = FaultList.safeParse(options.faults);
      if (!r.success) {
        const i = r.error.issues[0]!;
        throw new EmulatorStartError(`faults.${i.path.join('.')}: ${i.message}`, 'EINVALIDOPTION');
      }
    }
    // A seed is read and checked before anything starts: a bad one names file, line and field.
    const seed = options.seed ? loadSeedOrFail(String(options.seed)) : null;
    // Scripts too (the seed's, then --script's); their tools are checked once the seed's
    // MCP servers are registered.
    const startScripts = scriptsOrFail(() => readStartScripts(seed, options.scripts ?? []));
    let blobDir: string;
    let dbFile: string;
    if (options.inMemory) {
      blobDir = mkdtempSync(join(tmpdir(), 'avatar-emulator-'));
      stops.push(() => rmSync(blobDir, { recursive: true, force: true }));
      dbFile = ':memory:';
    } else {
      const dir = resolve(options.dataDir);
      blobDir = join(dir, 'blobs');
      dbFile = join(dir, 'emulator.sqlite');
      try {
        // Private (issue 23): it holds the bootstrap keys, recordings and uploads.
        mkdirSync(blobDir, { recursive: true, mode: DIR_MODE });
        const tightened = tightenDataDir(dir);
        if (tightened > 0)
          process.stderr.write(
            `[emulator] data dir ${dir}: made private (owner only) on ${tightened} entries that others could read\n`,
          );
        // SQLite gives its -wal and -shm files the mode of the database file.
        closeSync(openSync(dbFile, 'a', FILE_MODE));
      } catch (e) {
        throw new EmulatorStartError(
          `cannot use data dir ${dir}: ${(e as Error).message}`,
          codeOf(e, 'EDATADIR'),
          { cause: e },
        );
      }
      stops.push(lockDataDir(dir));
    }
    let db: Db;
    try {
      db = openDatabase(dbFile);
    } catch (e) {
      throw new EmulatorStartError(
        `cannot open the store ${dbFile}: ${(e as Error).message}`,
        codeOf(e, 'EDATADIR'),
        { cause: e },
      );
    }
    stops.push(() => {
      db.close();
    });
    const ctx: EmulatorContext = {
      db,
      clock: options.clock ?? new DrivableClock(),
      ids: options.ids ?? cryptoIds,
      options,
      blobDir,
      fixturesDir: FIXTURES_DIR,
      log: (line) => process.stderr.write(`[emulator] ${line}\n`),
      operatorToken: operatorTokenFor(options, options.ids ?? cryptoIds),
      onStop: (fn) => stops.push(fn),
      services: servicesNotBuilt,
    };
    const fresh = getSetting(db, 'bootstrap') === undefined;
    const keys = bootstrap(ctx);
    // The socket opens before the app exists (the token issuer names the bound address);
    // until the app is set, which happens before this function returns, requests get 503.
    const holder: { app: App | null } = { app: null };
    const hosts = new HostPolicy(options.allowedHosts ?? []);
    const { server, requests } = await listen(holder, options, ctx, hosts);
    stops.push(() => closeServer(server, requests, options.shutdownGraceMs ?? 5_000));
    bindPolicy(hosts, server as Server, options.host);
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const baseUrl = `http://${host}:${address.port}`;
    ctx.options = { ...options, baseUrl };
    // Every service, once, in order (src/emulator/services.ts); stopped in reverse.
    ctx.services = buildServices(ctx);
    const signing = await loadSigningKey(db, baseUrl);
    const scripts = new ScriptRegistry();
    const app = createApp(ctx, {
      signing,
      startedAt: Math.floor(ctx.clock.now() / 1000),
      scripts,
    });
    holder.app = app;
    // Seeds describe a starting state: applied to a fresh store only (a data dir reused
    // keeps what it has; docs/testing.md "Seeds").
    if (seed && fresh) {
      try {
        await applySeed(ctx, app, baseUrl, keys, seed);
      } catch (e) {
        if (e instanceof SeedError) throw new EmulatorStartError(e.message, 'ESEED', { cause: e });
        throw e;
      }
    } else if (seed)
      ctx.log(`seed ${String(options.seed)} not applied: the data dir already has state`);
    scriptsOrFail(() => loadChecked(ctx, scripts, startScripts));
    await startFleet(ctx);

    let stopping: Promise<void> | null = null;
    return {
      baseUrl,
      keys,
      operatorToken: ctx.operatorToken,
      app,
      ctx,
      // Idempotent: every call resolves when the emulator is down. Requests in flight get
      // their answers (up to shutdownGraceMs) before the store closes.
      stop: () => (stopping ??= undo()),
    };
  } catch (e) {
    await undo();
    throw e;
  }
}

function loadSeedOrFail(file: string): ReturnType<typeof loadSeed> {
  try {
    return loadSeed(file);
  } catch (e) {
    if (e instanceof SeedError) throw new EmulatorStartError(e.message, 'ESEED', { cause: e });
    throw e;
  }
}

/**
 * The scripts a start loads: the seed's (inline, or files relative to the seed, loaded at
 * every start, not only on a fresh store: scripts are not store state), then each
 * `--script` file; a later one of the same name replaces an earlier one.
 */
function readStartScripts(seed: LoadedSeed | null, files: readonly string[]): ReadScript[] {
  const read: ReadScript[] = [];
  for (const [i, entry] of (seed?.seed.scripts ?? []).entries()) {
    const source = `seed ${seed!.file}`;
    if (typeof entry === 'string')
      read.push(...readScriptFile(resolve(dirname(seed!.file), entry), source));
    else read.push({ script: entry, path: ['scripts', i], at: seed!.at, source });
  }
  for (const f of files) read.push(...readScriptFile(f));
  return read;
}

function scriptsOrFail<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof ScriptError) throw new EmulatorStartError(e.message, 'ESCRIPT', { cause: e });
    throw e;
  }
}

const codeOf = (e: unknown, fallback: string): string => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : fallback;
};

function listen(
  holder: { app: App | null },
  options: EmulatorOptions,
  ctx: EmulatorContext,
  hosts: HostPolicy,
): Promise<{ server: ServerType; requests: RequestCount }> {
  return new Promise((resolvePromise, reject) => {
    const server = serve(
      {
        fetch: async (req: Request, env: unknown) => {
          if (!holder.app) return new Response('{"error":"starting"}', { status: 503 });
          // The services are built before the app is set (buildServices, above).
          const { faults, log } = ctx.services;
          const started = ctx.clock.now();
          const path = new URL(req.url).pathname;
          // Faults (issue 18 item 6): a status and/or latency on the routes a fault names.
          const fault = faults.hit(req.method, path);
          const injected = fault ? await faults.apply(fault, path) : null;
          const res = injected ?? (await holder.app.fetch(req, env));
          // The operator log (issue 18 item 9): every request, with its status and time.
          log.request(req, path, started, res);
          return res;
        },
        port: options.port,
        hostname: options.host,
        // The Host check runs before any route (DNS rebinding; docs/security.md).
        createServer: hostGuardedServer(hosts) as never,
      },
      () => resolvePromise({ server, requests }),
    );
    server.on('error', (e: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      reject(
        e.code === 'EADDRINUSE'
          ? new EmulatorStartError(
              `port ${options.port} is in use on ${options.host}`,
              'EADDRINUSE',
              { cause: e },
            )
          : new EmulatorStartError(
              `cannot listen on ${where}: ${e.message}`,
              codeOf(e, 'ELISTEN'),
              { cause: e },
            ),
      );
    });
    const requests = trackRequests(server);
    server.on('clientError', answerClientError);
  });
}

const heldDataDirs = new Set<string>();

/**
 * One emulator per data dir: a second one would share the store but not the live state
 * (seats, queue), and its start-up would end the first one's live sessions. The lock file
 * names the holder's pid; a lock left by a process that died (kill -9) is taken over.
 * Returns the release function.
 */
function lockDataDir(dir: string): () => void {
  const file = join(dir, 'emulator.lock');
  const inUse = (pid: number) =>
    new EmulatorStartError(
      `data dir ${dir} is in use by another emulator (pid ${pid}): stop it, or pass another --data`,
      'EDATADIRINUSE',
    );
  if (heldDataDirs.has(dir)) throw inUse(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: FILE_MODE });
      heldDataDirs.add(dir);
      return () => {
        heldDataDirs.delete(dir);
        rmSync(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new EmulatorStartError(
          `cannot use data dir ${dir}: ${(e as Error).message}`,
          codeOf(e, 'EDATADIR'),
          { cause: e },
        );
      }
      let pid = NaN;
      try {
        pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
      } catch {
        continue; // removed meanwhile: try again
      }
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw inUse(pid);
      rmSync(file, { force: true }); // stale
    }
  }
  throw inUse(NaN);
}
