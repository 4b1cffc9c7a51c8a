/** The SQL of operator: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

export const operatorSql = statementTable((db) => ({
  listSqliteMasterName: db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY name",
  ),
  listSchemaMigrationsVersion: db.prepare('SELECT version FROM schema_migrations ORDER BY version'),
  insertSchemaMigrations: db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)',
  ),
}));
