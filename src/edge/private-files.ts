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

/** Remove group/other bits from `dir` and everything under it; returns how many entries changed. */
export function tightenDataDir(dir: string): number {
  let changed = 0;
  const walk = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return; // never follow a link out of the data dir
    if ((st.mode & 0o077) !== 0) {
      chmodSync(path, st.mode & 0o700);
      changed++;
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
  return changed;
}
