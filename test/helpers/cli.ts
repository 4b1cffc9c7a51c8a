import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { run } from '../../src/cli/main.js';
import type { EmulatorHandle } from './emulator.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

class Collect extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

/** A private config/state dir so tests never read or write the user's files. */
export function isolatedEnv(
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'avatar-cli-test-'));
  return {
    PATH: process.env.PATH,
    HOME: dir,
    AVATAR_CONFIG_DIR: join(dir, 'config'),
    AVATAR_STATE_DIR: join(dir, 'state'),
    ...extra,
  };
}

/**
 * `isolatedEnv` for a CLI that talks to this emulator with its workspace-bound secret key;
 * `workspace` names the emulator's workspace too (AVATAR_WORKSPACE_ID), `env` adds or overrides.
 */
export function emulatorEnv(
  h: Pick<EmulatorHandle, 'baseUrl' | 'emu'>,
  opts: { workspace?: boolean; env?: Record<string, string | undefined> } = {},
): Record<string, string | undefined> {
  return isolatedEnv({
    AVATAR_BASE_URL: h.baseUrl,
    AVATAR_API_KEY: h.emu.keys.secretKey,
    ...(opts.workspace ? { AVATAR_WORKSPACE_ID: h.emu.keys.workspaceId } : {}),
    ...opts.env,
  });
}

/**
 * Run the CLI in-process with injected streams (STYLE: Wrangler's runWrangler). `columns`
 * makes stdout a terminal that wide (tables drop columns, text wraps); else it is a pipe.
 */
export async function cli(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
  columns?: number,
): Promise<CliRun> {
  const stdout = new Collect();
  if (columns) Object.assign(stdout, { isTTY: true, columns });
  const stderr = new Collect();
  const code = await run(argv, { stdout, stderr, env, cwd });
  return {
    code,
    stdout: stdout.text,
    stderr: stderr.text,
    json: () => JSON.parse(stdout.text),
  };
}

/** A `--json` CLI run the test watches while it runs (`cli` gives the output at the end). */
export interface WatchedRun {
  /** The exit code, once the run ends. */
  code: Promise<number>;
  /** The NDJSON events printed so far. */
  lines: Record<string, any>[];
  /** The first event named `event`, waiting for it if it is not out yet. */
  until(event: string): Promise<Record<string, any>>;
  stderr(): string;
}

export function watchedCli(argv: string[], env: Record<string, string | undefined>): WatchedRun {
  const lines: Record<string, any>[] = [];
  const waiters: (() => void)[] = [];
  const stdout = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      waiters.splice(0).forEach((w) => w());
      cb();
    },
  });
  let err = '';
  const stderr = new Writable({ write: (c, _e, cb) => ((err += String(c)), cb()) });
  const code = run(argv, { stdout, stderr, env });
  const until = async (event: string) => {
    while (!lines.some((l) => l.event === event)) await new Promise<void>((r) => waiters.push(r));
    return lines.find((l) => l.event === event)!;
  };
  return { code, lines, until, stderr: () => err };
}

/**
 * `make` run once per distinct arguments, its promise shared by every test that reads the
 * run (a run of real-time media is not repeated for a second set of assertions). A failure
 * is reported to each test that awaits it, not as an unhandled rejection.
 */
export function sharedRuns<A extends unknown[], T>(
  make: (...args: A) => Promise<T>,
): (...args: A) => Promise<T> {
  const runs = new Map<string, Promise<T>>();
  return (...args) => {
    const key = JSON.stringify(args);
    let run = runs.get(key);
    if (!run) {
      run = make(...args);
      run.catch(() => undefined);
      runs.set(key, run);
    }
    return run;
  };
}
