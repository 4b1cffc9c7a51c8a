/**
 * The operator token (docs/security.md "Operator routes"): given (`AVATAR_OPERATOR_TOKEN`,
 * `startEmulator({ operatorToken })`) it is used as is for that start; an in-memory
 * emulator makes a new one at every start; an emulator with a data dir keeps its token in
 * `<data dir>/operator-token` (owner only, like the keys in the store), so an
 * `emulator.json` or `$OPERATOR_TOKEN` from before a restart keeps working.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FILE_MODE } from '../../edge/private-files.js';
import type { IdSource } from '../ids.js';
import type { EmulatorOptions } from '../options.js';

export const OPERATOR_TOKEN_FILE = 'operator-token';
const TOKEN = /^op_[0-9a-f]{48}$/;

const fresh = (ids: IdSource) => `op_${ids.hex(24)}`;

/** This start's operator token (the data dir is already locked for this process). */
export function operatorTokenFor(options: EmulatorOptions, ids: IdSource): string {
  if (options.operatorToken !== undefined) return options.operatorToken;
  if (options.inMemory) return fresh(ids);
  const file = join(resolve(options.dataDir), OPERATOR_TOKEN_FILE);
  let kept = '';
  try {
    kept = readFileSync(file, 'utf8').trim();
  } catch {
    // none yet
  }
  if (TOKEN.test(kept)) return kept;
  const token = fresh(ids);
  writeFileSync(file, `${token}\n`, { mode: FILE_MODE });
  return token;
}

/**
 * Why an `op_` token is refused, and where the current one is: it is most likely from an
 * earlier start of this emulator (an old `emulator.json` or `$OPERATOR_TOKEN`).
 */
export function staleTokenHint(options: EmulatorOptions): string {
  const where =
    "the current one is in this start's banner and --json ready line (operator_token), and on startEmulator()'s handle";
  if (options.operatorToken !== undefined)
    return `an operator token, but not this start's: this emulator was started with its own (AVATAR_OPERATOR_TOKEN); ${where}`;
  if (options.inMemory)
    return `an operator token from an earlier start? An in-memory emulator makes a new one at every start; ${where}`;
  return `an operator token, but not this emulator's: its token stays across restarts in the file ${OPERATOR_TOKEN_FILE} of its data dir; ${where}`;
}
