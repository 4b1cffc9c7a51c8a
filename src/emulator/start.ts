import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { bootstrap, type BootstrapKeys } from './bootstrap/bootstrap.js';
import { systemClock } from './clock.js';
import type { App, EmulatorContext } from './context.js';
import { openDatabase, type Db } from './db/database.js';
import { answerClientError, closeServer, trackRequests } from './http/server.js';
import { cryptoIds } from './ids.js';
import { defaultOptions, type EmulatorOptions } from './options.js';
import { optionProblems } from './option-limits.js';
import { loadSigningKey } from './signing/keys.js';
import { startFleet } from './fleet/spawn.js';
import { alive } from './pid-alive.js';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures', import.meta.url));

export interface RunningEmulator {
  /** `http://host:port`, no trailing slash. */
  baseUrl: string;
  keys: BootstrapKeys;
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
    if (problems.length > 0) throw new EmulatorStartError(problems.join('; '), problems[0]!.startsWith('port ') ? 'EINVALIDPORT' : 'EINVALIDOPTION');
    let blobDir: string;
    let dbFile: string;
    if (options.inMemory) {
      blobDir = mkdtempSync(join(tmpdir(), 'avatar-emulator-'));
      stops.push(() => rmSync(blobDir, { recursive: true, force: true }));
      dbFile = ':memory:';
    } else {
      const dir = resolve(options.dataDir);
      blobDir = join(dir, 'blobs');
      try {
        mkdirSync(blobDir, { recursive: true });
      } catch (e) {
        throw new EmulatorStartError(`cannot use data dir ${dir}: ${(e as Error).message}`, codeOf(e, 'EDATADIR'), { cause: e });
      }
      stops.push(lockDataDir(dir));
      dbFile = join(dir, 'emulator.sqlite');
    }
    let db: Db;
    try {
      db = openDatabase(dbFile);
    } catch (e) {
      throw new EmulatorStartError(`cannot open the store ${dbFile}: ${(e as Error).message}`, codeOf(e, 'EDATADIR'), { cause: e });
    }
    stops.push(() => {
      db.close();
    });
    const ctx: EmulatorContext = {
      db,
      clock: options.clock ?? systemClock,
      ids: options.ids ?? cryptoIds,
      options,
      blobDir,
      fixturesDir: FIXTURES_DIR,
      log: (line) => process.stderr.write(`[emulator] ${line}\n`),
      onStop: (fn) => stops.push(fn),
    };
    const keys = bootstrap(ctx);
    // The socket opens before the app exists (the token issuer names the bound address);
    // until the app is set, which happens before this function returns, requests get 503.
    const holder: { app: App | null } = { app: null };
    const server = await listen(holder, options);
    stops.push(() => closeServer(server, options.shutdownGraceMs ?? 5_000));
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const baseUrl = `http://${host}:${address.port}`;
    ctx.options = { ...options, baseUrl };
    const signing = await loadSigningKey(db, baseUrl);
    const app = createApp(ctx, { signing, startedAt: Math.floor(ctx.clock.now() / 1000) });
    holder.app = app;
    await startFleet(ctx);

    let stopping: Promise<void> | null = null;
    return {
      baseUrl,
      keys,
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

const codeOf = (e: unknown, fallback: string): string => {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' ? code : fallback;
};

function listen(holder: { app: App | null }, options: EmulatorOptions): Promise<ServerType> {
  return new Promise((resolvePromise, reject) => {
    const server = serve(
      {
        fetch: (req, env) =>
          holder.app ? holder.app.fetch(req, env) : new Response('{"error":"starting"}', { status: 503 }),
        port: options.port,
        hostname: options.host,
      },
      () => resolvePromise(server),
    );
    server.on('error', (e: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      reject(
        e.code === 'EADDRINUSE'
          ? new EmulatorStartError(`port ${options.port} is in use on ${options.host}`, 'EADDRINUSE', { cause: e })
          : new EmulatorStartError(`cannot listen on ${where}: ${e.message}`, codeOf(e, 'ELISTEN'), { cause: e }),
      );
    });
    trackRequests(server);
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
    new EmulatorStartError(`data dir ${dir} is in use by another emulator (pid ${pid}): stop it, or pass another --data`, 'EDATADIRINUSE');
  if (heldDataDirs.has(dir)) throw inUse(process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      heldDataDirs.add(dir);
      return () => {
        heldDataDirs.delete(dir);
        rmSync(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new EmulatorStartError(`cannot use data dir ${dir}: ${(e as Error).message}`, codeOf(e, 'EDATADIR'), { cause: e });
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
