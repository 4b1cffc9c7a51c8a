/**
 * The loaded conversation scripts of one emulator (docs/testing.md "Conversation scripts"),
 * built once by its composition root (start.ts) and handed to the routes that need it.
 *
 * - A load is all or nothing: the caller checks every script first (load.ts), then
 *   `load()` adds them; a name already loaded is replaced (and counts as loaded now).
 * - Kept in memory, not in the store (docs/fidelity.md): a restart loads them again from
 *   `--script` and the seed; a session keeps the script its mint chose in its own snapshot.
 * - At mint, `choose()` picks the script for a session: of those whose `match` holds, the
 *   most specific (one point for `persona`, one for `avatar_id`, one per `metadata` key),
 *   ties to the one loaded last.
 */
import type { LoadedScript, Script, ScriptMatch } from '../../contract/resources/script.js';

interface Entry {
  script: Script;
  source: string;
  seq: number;
}

/** What a mint tells `choose()`: the session's persona, avatar and metadata. */
export interface MintFacts {
  persona: string | null;
  avatarId: string | null;
  metadata: Record<string, unknown> | null;
}

/** How many conditions a match names: the more, the more specific. */
export const specificity = (m: ScriptMatch): number =>
  (m.persona !== undefined ? 1 : 0) +
  (m.avatar_id !== undefined ? 1 : 0) +
  Object.keys(m.metadata ?? {}).length;

/** True when every condition of `m` holds for the mint (an empty match holds for every one). */
export function matches(m: ScriptMatch, f: MintFacts): boolean {
  if (m.persona !== undefined && m.persona !== f.persona) return false;
  if (m.avatar_id !== undefined && m.avatar_id.toLowerCase() !== f.avatarId?.toLowerCase())
    return false;
  for (const [k, v] of Object.entries(m.metadata ?? {}))
    if (!f.metadata || !Object.hasOwn(f.metadata, k) || f.metadata[k] !== v) return false;
  return true;
}

export class ScriptRegistry {
  private readonly entries = new Map<string, Entry>();
  private seq = 0;

  /** Add checked scripts, in order; a loaded name is replaced. Answers them as listed. */
  load(scripts: readonly { script: Script; source: string }[]): LoadedScript[] {
    const added = scripts.map(({ script, source }) => {
      const e = { script, source, seq: ++this.seq };
      this.entries.delete(script.name);
      this.entries.set(script.name, e);
      return e;
    });
    return added.map(listed);
  }

  /** In load order. */
  list(): LoadedScript[] {
    return [...this.entries.values()].sort((a, b) => a.seq - b.seq).map(listed);
  }

  /** Forget every script; answers how many there were. Running sessions keep theirs. */
  clear(): number {
    const n = this.entries.size;
    this.entries.clear();
    return n;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The script a mint runs, or null (see the module comment for the rule). */
  choose(f: MintFacts): Script | null {
    let best: Entry | null = null;
    for (const e of this.entries.values()) {
      if (!matches(e.script.match, f)) continue;
      if (
        !best ||
        specificity(e.script.match) > specificity(best.script.match) ||
        (specificity(e.script.match) === specificity(best.script.match) && e.seq > best.seq)
      )
        best = e;
    }
    return best?.script ?? null;
  }
}

const listed = (e: Entry): LoadedScript => ({
  name: e.script.name,
  match: e.script.match,
  strict: e.script.strict,
  rules: e.script.rules.length,
  source: e.source,
  loaded_seq: e.seq,
});
