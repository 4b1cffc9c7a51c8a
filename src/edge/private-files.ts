/**
 * Used by the control plane (its --data dir) and by a box (its captures). The data directory is private (issue 23, docs/security.md): it holds the bootstrap keys in
 * plain text, users' microphone recordings and uploaded faces and voices. Created 0700 with
 * files 0600 (as credential files are); one left readable by others (made before this rule,
 * or by hand) is tightened on start.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** What the emulator writes in its data dir: the store (and its WAL), the lock, the blobs. */
const EMULATOR_ENTRIES = [
  'emulator.sqlite',
  'emulator.sqlite-wal',
  'emulator.sqlite-shm',
  'emulator.lock',
  'operator-token',
  'blobs',
];

/**
 * Remove group/other bits from `dir` and from what the emulator keeps in it (everything under
 * `blobs/`); returns how many entries changed. Other files someone put there (a `--data .`
 * pointing at a project) are left as they are.
 */
export function tightenDataDir(dir: string, entries: readonly string[] = EMULATOR_ENTRIES): number {
  let changed = 0;
  const tighten = (path: string, deep: boolean) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // not there (yet)
    }
    if (st.isSymbolicLink()) return; // never follow a link out of the data dir
    if ((st.mode & 0o077) !== 0) {
      chmodSync(path, st.mode & 0o700);
      changed++;
    }
    if (deep && st.isDirectory())
      for (const name of readdirSync(path)) tighten(join(path, name), true);
  };
  tighten(dir, false);
  for (const e of entries) tighten(join(dir, e), true);
  return changed;
}
