/**
 * Applies the SQL files of `migrations/` in name order, each in its own transaction, once. One
 * history for PGlite and PostgreSQL. An advisory lock lets several servers start at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Arbitrary constant: "bilan" in ASCII.
const LOCK_KEY = 0x62696c616e;

export function migrationFiles(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/** Applies pending migrations; returns the names applied now. */
export async function migrate(db: Database): Promise<string[]> {
  const applied: string[] = [];
  await db.asOwner(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migration')).map((r) => r.name));
    for (const name of migrationFiles()) {
      if (done.has(name)) continue;
      await tx.exec(readFileSync(join(MIGRATIONS_DIR, name), 'utf8'));
      await tx.query('INSERT INTO schema_migration (name) VALUES ($1)', [name]);
      applied.push(name);
    }
  });
  return applied;
}
