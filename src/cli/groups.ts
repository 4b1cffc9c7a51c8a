/**
 * The registry of `avatar`'s top-level words, derived from the command definitions: every
 * folder under src/cli/ with an index.ts exporting `groups` (defineGroup, src/cli/define.ts)
 * is a source of groups; no list here names them. `npm run build` writes the registry to
 * dist/cli/command-groups.json (scripts/write-cli-manifest.js), so `avatar --version` and
 * `avatar --help` load no command module, no schema and no HTTP client (issue 7 item 12:
 * start-up cost). `avatar <name> ...` loads only the folders that define `<name>`, then the
 * commands generated for `<name>` from the operation table (src/cli/generated.ts), so a
 * hand-written `<name> <verb>` replaces the generated one of the same name. Without the file
 * (tests from src, a bare `tsc`), the registry is derived by loading every folder's
 * index: slower, never stale. A word that is not a group loads every folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { GroupDefinition } from './define.js';

/** The headings of `avatar --help`, in order (grouped as `gh --help` groups its commands). */
export const SECTION = {
  start: 'Start here:',
  control: 'Control plane (/api/v1):',
  generations: 'Generations:',
  inference: 'Inference:',
  more: 'More:',
} as const;
/** Where `help [command]` is listed. */
export const HELP_SECTION = SECTION.start;

export interface CommandGroup {
  name: string;
  /** Its heading in `avatar --help`; the list keeps each heading's groups together. */
  section: string;
  /** One line for `avatar --help` (no module is loaded to show it). */
  description: string;
  /** The folders (under src/cli/) whose index.ts adds commands under `name`. */
  folders: string[];
  /** The command needs the whole tree (`avatar completion`): every group is loaded too. */
  wholeTree?: boolean;
}

const HERE = new URL('./', import.meta.url);
const FILE = new URL('./command-groups.json', import.meta.url);
/** Rebuilt by every tsc run: a registry older than it may not match the definitions. */
const DEFINE = new URL('./define.js', import.meta.url);

/** The folders with an index (.js when built, .ts from src), in name order. */
export function groupFolders(): { folder: string; index: URL }[] {
  const out: { folder: string; index: URL }[] = [];
  for (const e of readdirSync(HERE, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    for (const ext of ['js', 'ts']) {
      const index = new URL(`./${e.name}/index.${ext}`, HERE);
      try {
        statSync(index);
        out.push({ folder: e.name, index });
        break;
      } catch {
        // not a group folder
      }
    }
  }
  return out.sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The group definitions of one folder. */
export async function folderGroups(folder: string): Promise<GroupDefinition[]> {
  const f = groupFolders().find((x) => x.folder === folder);
  if (!f) throw new Error(`no command folder src/cli/${folder}/ (rebuild: npm run build)`);
  return ((await import(f.index.href)) as { groups?: GroupDefinition[] }).groups ?? [];
}

/** The registry of these folders' definitions, in `avatar --help` order. */
export function registryOf(
  folders: { folder: string; groups: GroupDefinition[] }[],
): CommandGroup[] {
  const owners = new Map<string, GroupDefinition & { folder: string }>();
  const sources = new Map<string, string[]>();
  for (const { folder, groups } of folders) {
    for (const g of groups) {
      if (g.section !== undefined) {
        const seen = owners.get(g.name);
        if (seen) throw new Error(`group ${g.name} is defined in ${seen.folder}/ and ${folder}/`);
        owners.set(g.name, { ...g, folder });
      }
      const list = sources.get(g.name) ?? [];
      if (g.commands?.length && !list.includes(folder)) list.push(folder);
      sources.set(g.name, list);
    }
  }
  for (const name of sources.keys())
    if (!owners.has(name)) throw new Error(`group ${name} has commands but no section/description`);
  const order = Object.values(SECTION) as string[];
  return [...owners.values()]
    .sort(
      (a, b) =>
        order.indexOf(a.section!) - order.indexOf(b.section!) || (a.rank ?? 0) - (b.rank ?? 0),
    )
    .map((g) => ({
      name: g.name,
      section: g.section!,
      description: g.description ?? '',
      folders: sources.get(g.name) ?? [],
      ...(g.wholeTree ? { wholeTree: true } : {}),
    }));
}

/** The built registry (dist/cli/command-groups.json), if present and not older than the build. */
export function builtRegistry(): CommandGroup[] | undefined {
  try {
    if (statSync(FILE).mtimeMs < statSync(DEFINE).mtimeMs) return undefined;
    return JSON.parse(readFileSync(FILE, 'utf8')) as CommandGroup[];
  } catch {
    return undefined;
  }
}

let loaded: CommandGroup[] | undefined;

/** The registry: built, or derived from every folder's definitions. */
export async function loadRegistry(): Promise<CommandGroup[]> {
  loaded ??=
    builtRegistry() ??
    registryOf(
      await Promise.all(
        groupFolders().map(async ({ folder, index }) => ({
          folder,
          groups: ((await import(index.href)) as { groups?: GroupDefinition[] }).groups ?? [],
        })),
      ),
    );
  return loaded;
}
