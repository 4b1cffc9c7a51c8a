/**
 * What the generated commands need for help and parsing, as plain data: each operation's
 * group, verb, summary, route and flags (derived from its zod schemas by schema-flags.ts).
 * `npm run build` writes it to dist/cli/command-manifest.json (scripts/write-cli-manifest.js),
 * so `avatar <group> --help` builds its commands without loading zod or the contract
 * (0.5-1.5 s before; bench/cli.bench.js). The schemas load when a command runs (the body is
 * still checked with them). Without the file, or when dist/contract was rebuilt after it
 * (a bare `tsc`), the manifest is derived from the contract: slower, never stale.
 */
import { readFileSync, statSync } from 'node:fs';
import type { AnyOperation } from '../contract/operation.js';
import { flagsOf, type FieldFlag } from './schema-flags.js';

export interface OperationEntry {
  id: string;
  group: string;
  verb: string;
  summary: string;
  method: string;
  path: string;
  /** Body fields as flags; null when the operation takes no JSON body. */
  body: FieldFlag[] | null;
  query: FieldFlag[];
  /** The answer is a file (image, video): `-o/--out`. */
  binary: boolean;
}

/** The manifest of these operations (all of them, with or without a CLI command). */
export function manifestOf(ops: readonly AnyOperation[]): OperationEntry[] {
  return ops.map((op) => ({
    id: op.id,
    group: op.cli ? op.cli.group : '',
    verb: op.cli ? op.cli.verb : '',
    summary: op.summary,
    method: op.method,
    path: op.path,
    body: op.body ? flagsOf(op.body) : null,
    query: flagsOf(op.query),
    binary: Object.values(op.responses).some((r) => r.contentType && !r.schema),
  }));
}

const FILE = new URL('./command-manifest.json', import.meta.url);
/** Rebuilt by every tsc run: a manifest older than it may not match the contract. */
const CONTRACT = new URL('../contract/operations/index.js', import.meta.url);

let loaded: OperationEntry[] | undefined;

function readBuilt(): OperationEntry[] | undefined {
  try {
    if (statSync(FILE).mtimeMs < statSync(CONTRACT).mtimeMs) return undefined;
    return JSON.parse(readFileSync(FILE, 'utf8')) as OperationEntry[];
  } catch {
    return undefined;
  }
}

/** Load the manifest once per process (main.ts awaits it before registering commands). */
export async function loadManifest(): Promise<OperationEntry[]> {
  loaded ??=
    readBuilt() ?? manifestOf((await import('../contract/operations/index.js')).operations);
  return loaded;
}

/** The entry of an operation id; only after loadManifest(). */
export function manifestEntry(id: string): OperationEntry {
  const e = loaded?.find((x) => x.id === id);
  if (!e) throw new Error(`no operation ${id} in the command manifest (loadManifest() first)`);
  return e;
}
