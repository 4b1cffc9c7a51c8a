import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError, ExitCode } from './exit-codes.js';

/**
 * A JSON value given on the command line: inline JSON, `@file`, or `@-` for stdin. `flag`
 * names the flag in errors (`--data`, `--tools-json`, ...).
 */
export function readData(value: string, cwd: string, flag = '--data'): unknown {
  let text = value;
  if (value.startsWith('@')) {
    const file = value.slice(1);
    try {
      text = readFileSync(file === '-' ? 0 : resolve(cwd, file), 'utf8');
    } catch (e) {
      throw new CliError(`${flag}: cannot read ${file}: ${(e as Error).message}`, ExitCode.usage);
    }
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(
      value.startsWith('@') ? `${flag}: ${value.slice(1)} is not valid JSON` : `${flag} is not valid JSON (inline JSON, or @file, or @- for stdin)`,
      ExitCode.usage,
    );
  }
}
