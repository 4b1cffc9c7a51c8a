import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { run } from '../../src/cli/main.js';

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
