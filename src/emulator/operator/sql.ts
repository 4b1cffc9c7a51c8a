/** The SQL of operator: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable, type Db } from '../db/database.js';

export const operatorSql = statementTable((db) => ({
  listSqliteMasterName: db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name",
  ),
  listSchemaMigrationsVersion: db.prepare('SELECT version FROM schema_migrations ORDER BY version'),
  insertSchemaMigrations: db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)',
  ),
}));

/*
 * Whole-table SQL for export, import and reset: the table names come from the schema
 * (sqlite_master), so these statements are prepared per call; they run once per table
 * per operator action, never per request.
 */

/** Every row of a table, as column names and value arrays. */
export function tableRows(db: Db, table: string): { columns: string[]; rows: unknown[][] } {
  const st = db.prepare(`SELECT * FROM "${table}"`);
  return { columns: st.columns().map((c) => c.name), rows: st.raw().all() as unknown[][] };
}

/** Delete a table's rows, all of them or those not matching `keep` (an SQL condition). */
export function deleteRows(db: Db, table: string, keep: string | null): void {
  db.prepare(`DELETE FROM "${table}"${keep ? ` WHERE NOT (${keep})` : ''}`).run();
}

/** Insert (or replace) rows into a table. */
export function putRows(db: Db, table: string, columns: string[], rows: unknown[][]): void {
  const cols = columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
  const st = db.prepare(
    `INSERT OR REPLACE INTO "${table}" (${cols}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  for (const r of rows) st.run(...r);
}
