/** Finding an optional system program (espeak-ng, a recorder, a player) on PATH. */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first directory of PATH holding an executable `cmd`, or undefined. */
export function which(
  cmd: string,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}
