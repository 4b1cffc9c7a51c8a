import { DIR_MODE, FILE_MODE } from '../../edge/private-files.js';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import type { EmulatorContext } from '../context.js';
import { getSetting, migrate, type Db } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';
import { findKey } from '../auth/credentials.js';
import { bootstrap, type BootstrapKeys } from '../bootstrap/bootstrap.js';
import { seedStockAvatars } from '../avatars/stock.js';
import { sessionRuntime } from '../sessions/runtime.js';
import { sessionSql } from '../sessions/sql.js';
import { deleteRows, operatorSql, putRows, tableRows } from './sql.js';

/**
 * The emulator's whole state as one JSON document, and back (issue 18 item 3;
 * docs/testing.md "State"): every table of the store and every blob. `migrations` names
 * the schema the rows were written under: an import of an older export loads the rows
 * into that schema, then runs the newer migrations over them, so an export from one
 * version imports into the next. An export from a newer emulator is refused.
 */
export const STATE_FORMAT = 'avatar-emulator-state';
export const STATE_FORMAT_VERSION = 1;

export interface StateDocument {
  format: typeof STATE_FORMAT;
  format_version: number;
  emulator_version: string;
  exported_at: number;
  /** Migration versions applied to the store the rows come from. */
  migrations: number[];
  tables: Record<string, { columns: string[]; rows: unknown[][] }>;
  /** Blob files under the data dir's blobs/, by relative path, base64. */
  blobs: Record<string, string>;
}

/** A state document the import cannot take; `detail` names the field. */
export class StateError extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const B64 = '$base64';
const encode = (v: unknown) => (Buffer.isBuffer(v) ? { [B64]: v.toString('base64') } : v);
const decode = (v: unknown) =>
  v && typeof v === 'object' && typeof (v as Record<string, unknown>)[B64] === 'string'
    ? Buffer.from((v as Record<string, string>)[B64]!, 'base64')
    : v;

const userTables = (db: Db): string[] =>
  (operatorSql(db).listSqliteMasterName.all() as { name: string }[]).map((r) => r.name);

function walk(dir: string, base = dir, out: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else if (e.isFile()) out.push(relative(base, p).split(sep).join('/'));
  }
  return out;
}

export function exportState(ctx: EmulatorContext, emulatorVersion: string): StateDocument {
  const tables: StateDocument['tables'] = {};
  for (const name of userTables(ctx.db)) {
    const { columns, rows } = tableRows(ctx.db, name);
    tables[name] = { columns, rows: rows.map((r) => r.map(encode)) };
  }
  const blobs: Record<string, string> = {};
  for (const rel of walk(ctx.blobDir))
    blobs[rel] = readFileSync(join(ctx.blobDir, rel)).toString('base64');
  return {
    format: STATE_FORMAT,
    format_version: STATE_FORMAT_VERSION,
    emulator_version: emulatorVersion,
    exported_at: ctx.clock.now(),
    migrations: (
      operatorSql(ctx.db).listSchemaMigrationsVersion.all() as {
        version: number;
      }[]
    ).map((r) => r.version),
    tables,
    blobs,
  };
}

function checkDocument(doc: unknown): StateDocument {
  const d = doc as Partial<StateDocument> | null;
  if (!d || typeof d !== 'object' || d.format !== STATE_FORMAT)
    throw new StateError(
      'invalid_request',
      `format: must be "${STATE_FORMAT}" (an avatar emulator export)`,
    );
  if (d.format_version !== STATE_FORMAT_VERSION)
    throw new StateError(
      'invalid_request',
      `format_version: this emulator reads ${STATE_FORMAT_VERSION} (got ${String(d.format_version)})`,
    );
  if (!Array.isArray(d.migrations) || !d.migrations.every((v) => Number.isInteger(v)))
    throw new StateError('invalid_request', 'migrations: must be an array of integers');
  const known = new Set(migrations.map((m) => m.version));
  const newer = d.migrations.filter((v) => !known.has(v));
  if (newer.length)
    throw new StateError(
      'state_too_new',
      `migrations: ${newer.join(', ')} come from a newer emulator; upgrade this one to import it`,
    );
  if (!d.tables || typeof d.tables !== 'object')
    throw new StateError('invalid_request', 'tables: must be an object');
  for (const [name, t] of Object.entries(d.tables)) {
    if (
      !t ||
      !Array.isArray(t.columns) ||
      !Array.isArray(t.rows) ||
      !t.rows.every((r) => Array.isArray(r) && r.length === t.columns.length)
    ) {
      throw new StateError(
        'invalid_request',
        `tables.${name}: must be { columns, rows } with one value per column`,
      );
    }
  }
  if (d.blobs !== undefined && (typeof d.blobs !== 'object' || d.blobs === null))
    throw new StateError('invalid_request', 'blobs: must be an object');
  for (const rel of Object.keys(d.blobs ?? {})) {
    const n = normalize(rel);
    if (n.startsWith('..') || n.startsWith('/') || n.includes('\0'))
      throw new StateError('invalid_request', `blobs.${rel}: must be a path inside the blob dir`);
  }
  return d as StateDocument;
}

/** Seats and tickets are not state that survives: every live session ends, the line empties. */
function endLive(ctx: EmulatorContext): void {
  const rt = sessionRuntime(ctx);
  const live = sessionSql(ctx.db).listLiveSessionIds.all() as { id: string }[];
  for (const { id } of live) void rt.endSession(id, 'restart');
  rt.queue.drain();
}

/** Rows of `from` replace every row of `to`'s tables (tables `to` lacks are skipped). */
function replaceRows(
  to: Db,
  fill: (insert: (table: string, columns: string[], rows: unknown[][]) => void) => void,
  keep: (table: string) => string | null,
): void {
  const tables = new Set(userTables(to));
  to.pragma('foreign_keys = OFF');
  try {
    to.transaction(() => {
      for (const t of tables) {
        const where = keep(t);
        deleteRows(to, t, where);
      }
      fill((table, columns, rows) => {
        if (!tables.has(table) || rows.length === 0) return;
        putRows(
          to,
          table,
          columns,
          rows.map((r) => r.map(decode)),
        );
      });
    })();
  } finally {
    to.pragma('foreign_keys = ON');
  }
}

export function importState(ctx: EmulatorContext, raw: unknown): BootstrapKeys {
  const doc = checkDocument(raw);
  // Rebuild the export's schema, load its rows, then migrate them to this version's.
  const tmp = new Database(':memory:');
  try {
    tmp.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (!doc.migrations.includes(m.version)) continue;
      tmp.exec(m.up);
      operatorSql(tmp).insertSchemaMigrations.run(m.version, m.name);
    }
    try {
      replaceRows(
        tmp,
        (insert) => {
          for (const [name, t] of Object.entries(doc.tables)) insert(name, t.columns, t.rows);
        },
        () => null,
      );
    } catch (e) {
      throw new StateError('invalid_request', `tables: ${(e as Error).message}`);
    }
    migrate(tmp);
    endLive(ctx);
    replaceRows(
      ctx.db,
      (insert) => {
        for (const name of userTables(tmp)) {
          const { columns, rows } = tableRows(tmp, name);
          insert(name, columns, rows);
        }
      },
      () => null,
    );
  } finally {
    tmp.close();
  }
  for (const [rel, b64] of Object.entries(doc.blobs ?? {})) {
    const file = join(ctx.blobDir, normalize(rel));
    // Private as every file the emulator writes (docs/security.md): captures are users' voices.
    mkdirSync(dirname(file), { recursive: true, mode: DIR_MODE });
    writeFileSync(file, Buffer.from(b64, 'base64'), { mode: FILE_MODE });
  }
  seedStockAvatars(ctx);
  return bootstrap(ctx);
}

/**
 * Back to a fresh store: every workspace, avatar, voice, key, session, webhook and job
 * goes; the stock catalog, the signing key and (with `keepKeys`) the bootstrap user,
 * organisation, workspace and its two keys stay, so the printed keys keep working.
 */
export function resetState(ctx: EmulatorContext, keepKeys: boolean): BootstrapKeys {
  const stored = getSetting(ctx.db, 'bootstrap');
  const keys = stored ? (JSON.parse(stored) as BootstrapKeys) : null;
  endLive(ctx);
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
  const keyIds = keys
    ? [keys.secretKey, keys.dashboardKey]
        .map((k) => findKey(ctx.db, k)?.id)
        .filter((x): x is string => !!x)
    : [];
  const stockAvatars = "SELECT id FROM avatars WHERE kind = 'stock'";
  const kept: Record<string, string> = {
    avatars: "kind = 'stock'",
    avatar_versions: `avatar_id IN (${stockAvatars})`,
    idle_media: `avatar_id IN (${stockAvatars})`,
    voices: "kind = 'stock'",
    voice_versions: "voice_id IN (SELECT id FROM voices WHERE kind = 'stock')",
    settings: keepKeys ? '1' : "key != 'bootstrap'",
  };
  if (keepKeys && keys) {
    kept.users = `id = ${q(keys.userId)}`;
    kept.orgs = `id = ${q(keys.orgId)}`;
    kept.workspaces = `id = ${q(keys.workspaceId)}`;
    kept.api_keys = keyIds.length ? `id IN (${keyIds.map(q).join(', ')})` : '0';
  }
  replaceRows(
    ctx.db,
    () => {},
    (t) => kept[t] ?? null,
  );
  seedStockAvatars(ctx);
  return bootstrap(ctx);
}
