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
  return parseJsonFlag(text, flag, value.startsWith('@') ? value.slice(1) : undefined);
}

/**
 * JSON text given to `flag` (read from `file` when named), or a usage error that says where
 * it stops parsing: line and column, the line itself and a caret under the spot.
 */
export function parseJsonFlag(text: string, flag: string, file?: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const why = (e as Error).message
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/ \(line \d+ column \d+\)$/, '');
    const at = /at position (\d+)/.exec((e as Error).message);
    const pos = at ? Number(at[1]) : text.length;
    const before = text.slice(0, pos);
    const line = before.split('\n').length;
    const col = pos - (before.lastIndexOf('\n') + 1);
    const src = text.split('\n')[line - 1] ?? '';
    // A long line is shown around the spot, the caret under it.
    const from = Math.max(0, col - 40);
    const shown = (from > 0 ? '…' : '') + src.slice(from, from + 70);
    const caret = ' '.repeat(col - from + (from > 0 ? 1 : 0)) + '^';
    const where = `${file ? `${file}, ` : ''}line ${line}, column ${col + 1}`;
    const hint = file ? '' : '\n(inline JSON, or @file, or @- for stdin)';
    throw new CliError(
      `${flag} is not valid JSON at ${where}: ${why}\n  ${shown}\n  ${caret}${hint}`,
      ExitCode.usage,
    );
  }
}
