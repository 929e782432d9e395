/**
 * Applies the SQL files of `migrations/` in name order, once each, one transaction per file: a
 * failing file rolls back alone and leaves the ones before it applied. One history for PGlite and
 * PostgreSQL (`schema_migration`: name, applied_at, checksum).
 *
 * Applied files are history: each one's SHA-256 is recorded, and start-up is refused when an
 * applied file no longer matches (a changed file would never run again, so the databases it was
 * applied to and new ones would silently differ). Several servers may start at once: every
 * transaction takes the same advisory lock and re-reads what is applied before it runs a file.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database, Tx } from './database.js';

/** The migrations shipped with the server. */
export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Arbitrary constant: "bilan" in ASCII.
const LOCK_KEY = 0x62696c616e;

/** A migration history that the server must not run on; the message names the file and the way out. */
export class MigrationError extends Error {}

/** The migration file names of `dir` (`NNNN_snake_case.sql`) in the order they apply. */
export function migrationFiles(dir: string = MIGRATIONS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
}

/**
 * SHA-256 (hex) of a migration's text. Line endings are normalized first so that a checkout with
 * CRLF (git autocrlf on Windows) is not taken for a changed file.
 */
export function migrationChecksum(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex');
}

/** Serializes migrating servers until the end of the transaction (re-taken in every transaction). */
async function lock(tx: Tx): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
}

/**
 * Applies the pending migrations of `dir` (default: the server's own); returns the names applied
 * now, [] when the database was up to date. Throws MigrationError: before applying anything when
 * an applied file changed; when a file fails, after rolling back that file alone (the database's
 * error is the cause).
 */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = migrationFiles(dir).map((name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    return { name, text, checksum: migrationChecksum(text) };
  });

  const recorded = await db.asOwner(async (tx) => {
    await lock(tx);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migration (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      ALTER TABLE schema_migration ADD COLUMN IF NOT EXISTS checksum text`);
    // Histories written before checksums were kept: the files on disk are taken as applied. One
    // statement for all files (one per file cost ~0.1 s of every PGlite start).
    await tx.query(
      `UPDATE schema_migration m SET checksum = f.checksum
         FROM unnest($1::text[], $2::text[]) AS f(name, checksum)
        WHERE m.name = f.name AND m.checksum IS NULL`,
      [files.map((file) => file.name), files.map((file) => file.checksum)],
    );
    return tx.query<{ name: string; checksum: string | null }>('SELECT name, checksum FROM schema_migration');
  });
  const checksums = new Map(recorded.map((row) => [row.name, row.checksum]));
  const changed = files.filter((file) => checksums.has(file.name) && checksums.get(file.name) !== file.checksum);
  if (changed.length) {
    throw new MigrationError(
      `Applied migration${changed.length > 1 ? 's' : ''} changed since applied: ${changed.map((file) => join(dir, file.name)).join(', ')}. ` +
        'Restore the applied text (git checkout) and put the change in a new migration file.',
    );
  }

  const applied: string[] = [];
  for (const file of files.filter((f) => !checksums.has(f.name))) {
    const isNew = await db
      .asOwner(async (tx) => {
        await lock(tx);
        // Another server may have applied it while this one waited for the lock.
        const [done] = await tx.query('SELECT 1 FROM schema_migration WHERE name = $1', [file.name]);
        if (done) return false;
        await tx.exec(file.text);
        await tx.query('INSERT INTO schema_migration (name, checksum) VALUES ($1, $2)', [file.name, file.checksum]);
        return true;
      })
      .catch((error: unknown) => {
        throw new MigrationError(`Migration ${file.name} failed and was rolled back: ${(error as Error).message}`, { cause: error });
      });
    if (isNew) applied.push(file.name);
  }
  return applied;
}
