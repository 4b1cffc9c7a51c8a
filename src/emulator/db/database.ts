import Database from 'better-sqlite3';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;
/** A prepared statement (better-sqlite3's), as the statement tables hold them. */
export interface Statement extends Database.Statement {}

/**
 * Open (or create) the store: one SQLite file per data dir, WAL, numbered migrations.
 * `:memory:` for tests. synchronous=NORMAL under WAL keeps every committed transaction
 * across a process kill (kill -9); only an OS crash could lose the newest commits.
 */
export function openDatabase(file: string): Db {
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * A store's statement table: `build` prepares the store's named statements, once per
 * database (the first use on a `Db` builds them; every later use gets the same ones).
 * SQL lives only in these tables (the `sql.ts` of each area, docs/architecture.md "Stores
 * and statement tables"): routes and workers call the named statements, never `prepare`.
 * better-sqlite3 statements are reusable; `run`/`get`/`all` complete before the next use.
 * Do not call `.iterate()` on a statement that may run again inside the loop.
 */
export function statementTable<K extends string>(
  build: (db: Db) => Record<K, Statement>,
): (db: Db) => Record<K, Statement> {
  const tables = new WeakMap<Db, Record<K, Statement>>();
  return (db) => {
    let table = tables.get(db);
    if (!table) tables.set(db, (table = build(db)));
    return table;
  };
}

const settingSql = statementTable((db) => ({
  get: db.prepare('SELECT value FROM settings WHERE key = ?'),
  set: db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ),
}));

export function migrate(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (const m of sorted) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.up);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        Math.floor(Date.now() / 1000),
      );
    })();
  }
}

/** Small typed key/value table for emulator state (signing key, bootstrap credentials). */
export function getSetting(db: Db, key: string): string | undefined {
  const row = settingSql(db).get.get(key) as { value: string } | undefined;
  return row?.value;
}

export function setSetting(db: Db, key: string, value: string): void {
  settingSql(db).set.run(key, value);
}
