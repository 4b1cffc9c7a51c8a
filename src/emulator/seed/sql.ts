/** The SQL of seeds: named statements, prepared once per database (docs/architecture.md "Stores and statement tables"). */
import { statementTable } from '../db/database.js';

/** Whether a fixed id of a seed is already in the store, one statement per table a seed fills. */
export const seedSql = statementTable((db) => ({
  workspaces: db.prepare('SELECT 1 FROM workspaces WHERE id = ?'),
  avatars: db.prepare('SELECT 1 FROM avatars WHERE id = ?'),
  avatar_profiles: db.prepare('SELECT 1 FROM avatar_profiles WHERE id = ?'),
  voices: db.prepare('SELECT 1 FROM voices WHERE id = ?'),
  mcp_servers: db.prepare('SELECT 1 FROM mcp_servers WHERE id = ?'),
}));

export type SeededTable = keyof ReturnType<typeof seedSql>;
