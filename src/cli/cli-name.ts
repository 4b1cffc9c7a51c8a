/**
 * How to run this CLI from a directory (issue 7 item 11), for banners and hints: `avatar`
 * when that name on PATH is this very CLI (npm link, a global install), `npx avatar` when
 * the project in `cwd` has it as a dependency, else `node <path to bin/avatar.js>`.
 * Outside such a project `npx avatar` would fetch whatever the registry calls "avatar",
 * so a hint never says it there.
 */
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

function real(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

export function cliName(io: { env: Record<string, string | undefined>; cwd: string }): string {
  const bin = fileURLToPath(new URL('../../bin/avatar.js', import.meta.url));
  const me = real(bin);
  for (const dir of (io.env.PATH ?? '').split(delimiter)) {
    if (dir && me && real(join(dir, 'avatar')) === me) return 'avatar';
  }
  if (existsSync(join(io.cwd, 'node_modules', '.bin', 'avatar'))) return 'npx avatar';
  const rel = relative(io.cwd, bin);
  return `node ${rel.startsWith('..') ? bin : rel}`;
}
