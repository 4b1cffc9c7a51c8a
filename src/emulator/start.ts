import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { bootstrap, type BootstrapKeys } from './bootstrap/bootstrap.js';
import { systemClock } from './clock.js';
import type { App, EmulatorContext } from './context.js';
import { openDatabase } from './db/database.js';
import { cryptoIds } from './ids.js';
import { defaultOptions, type EmulatorOptions } from './options.js';
import { loadSigningKey } from './signing/keys.js';
import { startFleet } from './fleet/spawn.js';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures', import.meta.url));

export interface RunningEmulator {
  /** `http://host:port`, no trailing slash. */
  baseUrl: string;
  keys: BootstrapKeys;
  app: App;
  ctx: EmulatorContext;
  stop(): Promise<void>;
}

/**
 * Start the control plane (and, once it exists, its in-process edge boxes) on a real
 * socket. `port: 0` picks a free port; the resolved `baseUrl` says which.
 */
export async function startEmulator(opts: Partial<EmulatorOptions> = {}): Promise<RunningEmulator> {
  const options: EmulatorOptions = { ...defaultOptions, ...opts };
  const stops: (() => void | Promise<void>)[] = [];
  let blobDir: string;
  let dbFile: string;
  if (options.inMemory) {
    blobDir = mkdtempSync(join(tmpdir(), 'avatar-emulator-'));
    stops.push(() => rmSync(blobDir, { recursive: true, force: true }));
    dbFile = ':memory:';
  } else {
    const dir = resolve(options.dataDir);
    blobDir = join(dir, 'blobs');
    mkdirSync(blobDir, { recursive: true });
    dbFile = join(dir, 'emulator.sqlite');
  }
  const db = openDatabase(dbFile);
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
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const baseUrl = `http://${host}:${address.port}`;
  ctx.options = { ...options, baseUrl };
  const signing = await loadSigningKey(db, baseUrl);
  const app = createApp(ctx, { signing, startedAt: Math.floor(ctx.clock.now() / 1000) });
  holder.app = app;
  await startFleet(ctx);

  let stopped = false;
  return {
    baseUrl,
    keys,
    app,
    ctx,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const fn of stops.reverse()) await fn();
      await new Promise<void>((res) => {
        server.close(() => res());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      db.close();
    },
  };
}

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
    server.on('error', reject);
  });
}
