/**
 * The PGlite template the build writes (decisions 035 and 041): a database initialized and migrated
 * once at build time, copied into an empty data directory at start instead of running initdb and
 * every migration there (in WebAssembly: about 3 s and 1.5 s on the 2-core machine).
 *
 * The template holds nothing of one installation: the migrations only create the schema and insert
 * fixed reference rows; secrets (session keys, the built-in identity provider's keys) are made by
 * the server on first use (`serverSecret`), so every installation still gets its own.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

/** What a template was made of, recorded beside it (`pglite-template.json`), and where it is. */
export interface TemplateKey {
  /** The version of PGlite that wrote it: another one may not read it. */
  pglite: string;
  /** `migrationsKey()` of the migrations applied to it. */
  migrations: string;
  /** Its directory, beside the key file. */
  dir: string;
}

/** The key recorded in `metaFile`, or null when there is none or it cannot be read. */
export function templateKey(metaFile: string): Partial<TemplateKey> | null {
  try {
    return JSON.parse(readFileSync(metaFile, 'utf8')) as Partial<TemplateKey>;
  } catch {
    return null;
  }
}

/** The installed PGlite's version (its package.json, which its `exports` do not list). */
export function installedPgliteVersion(): string {
  const main = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** The template's directory name for a key: a new key writes a new directory beside the old one. */
export const templateDirName = (key: Omit<TemplateKey, 'dir'>): string => `pglite-template-${key.pglite}-${key.migrations.slice(0, 16)}`;

/**
 * Initializes a PGlite database, applies the migrations of `dir` (default: the server's) and leaves
 * its data directory, cleanly shut down, at `target` (replacing what was there; the build writes
 * each key's template to a directory of its own, so a server copying the previous one is not
 * disturbed): the template is a plain copy of a data directory, which a start copies with the file
 * system (0.8 s for ~1,400 files, 44–60 MB here) where PGlite's own `loadDataDir` of a tarball took
 * 2.2–3.7 s. Build time only.
 */
export async function writePgliteTemplate(target: string, dir: string = MIGRATIONS_DIR): Promise<void> {
  const building = `${target}.${process.pid}.tmp`;
  rmSync(building, { recursive: true, force: true });
  try {
    const db = await openPglite(building);
    try {
      await migrate(db, dir);
    } finally {
      await db.close();
    }
    rmSync(target, { recursive: true, force: true });
    renameSync(building, target);
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}
