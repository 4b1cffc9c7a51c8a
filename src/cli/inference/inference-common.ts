/** Shared bits of the inference command groups (chat, embed, tts, ..., workflows, orgs). */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { parseJsonFlag } from '../read-data.js';

/** Loaded by cli.ready() before any action, so `avatar embed --help` loads no HTTP client. */
export const inference = (cli: CliContext) => cli.inference();

/** The terminal's width for tables (none for pipes and files: they get every column). */
export const termWidth = (cli: CliContext): number | undefined =>
  cli.io.stdout.isTTY ? cli.io.stdout.columns : undefined;

/** A JSON argument: inline JSON, @file or @- (stdin). */
export function jsonArg(cli: CliContext, value: string, flag: string): unknown {
  let text = value;
  if (value.startsWith('@')) text = readFileArg(cli, value.slice(1)).toString('utf8');
  return parseJsonFlag(text, flag, value.startsWith('@') ? value.slice(1) : undefined);
}

export function readFileArg(cli: CliContext, file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : resolve(cli.io.cwd, file));
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
  }
}

export function writeFileArg(cli: CliContext, file: string, bytes: Uint8Array): string {
  const path = resolve(cli.io.cwd, file);
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    throw new CliError(`cannot write ${file}: ${(e as Error).message}`, ExitCode.usage);
  }
  return path;
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliError(`${flag} must be a positive integer (got ${value})`, ExitCode.usage);
  return n;
}

/** The organisation of the key in use (GET /api/organizations), unless --org names one. */
export async function orgId(cli: CliContext, given?: string): Promise<string> {
  if (given) return given;
  const orgs = await inference(cli).organizations();
  const id = orgs.data[0]?.id;
  if (!id) throw new CliError('this key belongs to no organisation; pass --org ID', ExitCode.usage);
  return id;
}
