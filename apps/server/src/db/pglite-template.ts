/**
 * The PGlite template the build writes (decisions 035 and 041): a database initialized and migrated
 * once at build time, loaded into an empty data directory at start instead of running initdb and
 * every migration there (in WebAssembly: about 3 s and 1.5 s on the 2-core machine).
 *
 * The template holds nothing of one installation: the migrations only create the schema and insert
 * fixed reference rows; secrets (session keys, the built-in identity provider's keys) are made by
 * the server on first use (`serverSecret`), so every installation still gets its own.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openPglite } from './database.js';
import { migrate, migrationChecksum, migrationFiles, MIGRATIONS_DIR } from './migrate.js';

/**
 * SHA-256 (hex) of the migrations of `dir` (default: the server's), names and contents: the key of
 * a template, which must hold exactly these migrations.
 */
export function migrationsKey(dir: string = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  for (const name of migrationFiles(dir)) hash.update(`${name}:${migrationChecksum(readFileSync(join(dir, name), 'utf8'))}\n`);
  return hash.digest('hex');
}

/** The key recorded beside the template (`*.json`), or null when there is none or it cannot be read. */
export function templateKey(metaFile: string): { pglite?: string; migrations?: string } | null {
  try {
    return JSON.parse(readFileSync(metaFile, 'utf8')) as { pglite?: string; migrations?: string };
  } catch {
    return null;
  }
}

/**
 * Initializes a PGlite database in a temporary directory, applies the migrations of `dir` (default:
 * the server's) and writes its data directory as a gzipped tarball (PGlite's `dumpDataDir`) to
 * `file`. Build time only.
 */
export async function writePgliteTemplate(file: string, dir: string = MIGRATIONS_DIR): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bilan-pglite-template-'));
  try {
    const db = await openPglite(dataDir);
    try {
      await migrate(db, dir);
    } finally {
      await db.close();
    }
    const raw = await PGlite.create(dataDir);
    try {
      const tar = await raw.dumpDataDir('gzip');
      writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
    } finally {
      await raw.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
