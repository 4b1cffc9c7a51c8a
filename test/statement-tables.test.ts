/**
 * Statements built once per store (issue 19 item 3): SQL lives in the statement tables
 * (each area's `sql.ts`, docs/architecture.md "Stores and statement tables"), routes and
 * workers call their named statements, and better-sqlite3 is used as shipped (no global
 * patch of `prepare`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase, statementTable } from '../src/emulator/db/database.js';

const root = join(import.meta.dirname, '..');

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (e.name.endsWith('.ts')) out.push(relative(root, p).split(sep).join('/'));
  }
  return out;
}

/** Where `prepare` may be called: the statement tables and the database module (migrations). */
const isStatementModule = (file: string) =>
  file.endsWith('/sql.ts') || file === 'src/emulator/db/database.ts';

describe('statement tables', () => {
  it('no module outside the statement tables prepares SQL', () => {
    const offenders: string[] = [];
    for (const file of sources(join(root, 'src'))) {
      if (isStatementModule(file)) continue;
      readFileSync(join(root, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\.prepare\s*[(<]/.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it("better-sqlite3's prepare is untouched: no global patch, no per-database override", () => {
    const wrappers = createRequire(import.meta.url)('better-sqlite3/lib/methods/wrappers') as {
      prepare: unknown;
    };
    const db = openDatabase(':memory:');
    try {
      expect(Database.prototype.prepare).toBe(wrappers.prepare);
      expect(Object.hasOwn(db, 'prepare')).toBe(false);
      expect(db.prepare).toBe(wrappers.prepare);
      // As shipped, every prepare builds a new statement; reuse is the tables' job.
      expect(db.prepare('SELECT 1')).not.toBe(db.prepare('SELECT 1'));
    } finally {
      db.close();
    }
  });

  it('a table is built once per database and its statements are reused', () => {
    let builds = 0;
    const table = statementTable((db) => {
      builds++;
      return { one: db.prepare('SELECT 1 AS n') };
    });
    const a = openDatabase(':memory:');
    const b = openDatabase(':memory:');
    try {
      expect(table(a).one).toBe(table(a).one);
      expect(table(a).one.get()).toEqual({ n: 1 });
      expect(table(b).one).not.toBe(table(a).one);
      expect(builds).toBe(2);
    } finally {
      a.close();
      b.close();
    }
  });
});
