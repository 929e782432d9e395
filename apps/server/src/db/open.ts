/**
 * Start-up of the database: open, check the runtime role, migrate (README "Production database").
 */
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, type Config } from '../config.js';
import { openPglite, openPostgres, type Database } from './database.js';
import { migrate } from './migrate.js';
import { installedPgliteVersion, migrationsKey, templateKey } from './pglite-template.js';

/**
 * The key of the PGlite data directory that the build initialized and migrated
 * (apps/server/scripts/build.mjs, db/pglite-template.ts, decisions 035 and 041), which names the
 * template's directory beside it: copying it into an empty directory takes a second where initdb
 * and the migrations in WebAssembly take several. Absent before the first build (tests, `npm run
 * dev`): initdb and the migrations run.
 */
const PGLITE_TEMPLATE_KEY = fileURLToPath(new URL('../../dist/pglite-template.json', import.meta.url));

/**
 * The template's directory when it holds exactly what this server would make: the migrations of
 * this server, by the installed PGlite (a build older than a migration's change would otherwise
 * refuse to start a new directory; one older than PGlite could not be read). Null otherwise.
 */
function usableTemplate(): string | null {
  const key = templateKey(PGLITE_TEMPLATE_KEY);
  if (!key?.dir || key.migrations !== migrationsKey() || key.pglite !== installedPgliteVersion()) return null;
  const dir = join(dirname(PGLITE_TEMPLATE_KEY), key.dir);
  return existsSync(dir) ? dir : null;
}

/** PGlite in `dir`, started from the build's template when the directory is new and there is a usable one. */
async function openPgliteDir(dir: string): Promise<Database> {
  const isEmpty = !existsSync(dir) || readdirSync(dir).length === 0;
  const template = isEmpty ? usableTemplate() : null;
  if (template) {
    try {
      cpSync(template, dir, { recursive: true });
      return await openPglite(dir);
    } catch (error) {
      // A damaged template, or one a build replaced during the copy: the directory was empty, so
      // it is emptied again (not removed: it may be a mount point) and initdb runs as without one.
      console.warn(`PGlite template ${template} not used (${(error as Error).message}); initializing ${dir}`);
      for (const entry of existsSync(dir) ? readdirSync(dir) : []) rmSync(join(dir, entry), { recursive: true, force: true });
    }
  }
  return openPglite(dir);
}

/** The roles every application transaction switches to (migration 0001). */
const APPLICATION_ROLES = ['bilan_app', 'bilan_auth'] as const;

interface Role {
  name: string;
  isSuperuser: boolean;
  bypassesRls: boolean;
}

async function connectingRole(db: Database): Promise<Role> {
  const [role] = await db.asOwner((tx) =>
    tx.query<{ name: string; rolsuper: boolean; rolbypassrls: boolean }>(
      'SELECT rolname AS name, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user',
    ),
  );
  return { name: role!.name, isSuperuser: role!.rolsuper, bypassesRls: role!.rolbypassrls };
}

/**
 * As the migrating owner: lets the runtime user switch to the application roles
 * (`set_config('role', …)` needs membership; from PostgreSQL 16 one with the SET option).
 */
async function grantApplicationRoles(owner: Database, runtimeUser: string): Promise<void> {
  await owner.asOwner(async (tx) => {
    const missing = await tx.query<{ role: string }>(
      `SELECT role FROM unnest($2::text[]) AS r(role)
        WHERE NOT pg_has_role($1, role, CASE WHEN current_setting('server_version_num')::int >= 160000 THEN 'SET' ELSE 'MEMBER' END)`,
      [runtimeUser, APPLICATION_ROLES],
    );
    for (const { role } of missing) {
      const [grant] = await tx.query<{ sql: string }>('SELECT format($1::text, $2::text, $3::text) AS sql', ['GRANT %I TO %I', role, runtimeUser]);
      await tx.exec(grant!.sql);
    }
  });
}

/**
 * Opens the configured database and migrates it: PGlite in BILAN_DATA_DIR, or the PostgreSQL
 * server of DATABASE_URL, migrated as BILAN_MIGRATION_DATABASE_URL's owner when that is set (which
 * also grants the DATABASE_URL user the application roles). Throws ConfigError when, in
 * production, the DATABASE_URL user is a superuser or bypasses row-level security (the tenant
 * policies would not apply: decision 002), or when it cannot act as the application roles;
 * MigrationError (migrate.ts) when the history is refused.
 */
export async function openDatabase(
  config: Pick<Config, 'env' | 'databaseUrl' | 'migrationDatabaseUrl' | 'dataDir' | 'preparedStatements'>,
): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres(config.databaseUrl, { preparedStatements: config.preparedStatements })
    : await openPgliteDir(join(config.dataDir, 'pglite'));
  try {
    if (db.kind === 'pglite') {
      await migrate(db);
      return db;
    }
    const runtime = await connectingRole(db);
    if (config.env === 'production' && (runtime.isSuperuser || runtime.bypassesRls)) {
      throw new ConfigError(
        `DATABASE_URL: the user "${runtime.name}" is ${runtime.isSuperuser ? 'a superuser' : 'allowed to bypass row-level security'}; ` +
          'in production the server connects as a login role without SUPERUSER and BYPASSRLS and migrates with ' +
          'BILAN_MIGRATION_DATABASE_URL (README "Production database")',
      );
    }
    if (config.migrationDatabaseUrl) {
      const owner = await openPostgres(config.migrationDatabaseUrl, { max: 1 });
      try {
        await migrate(owner);
        await grantApplicationRoles(owner, runtime.name);
      } finally {
        await owner.close();
      }
    } else {
      await migrate(db).catch((error: unknown) => {
        const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
        if (code !== '42501') throw error;
        throw new ConfigError(
          `DATABASE_URL: the user "${runtime.name}" may not migrate the database (${(error as Error).message}); ` +
            'set BILAN_MIGRATION_DATABASE_URL to the owner (README "Production database")',
          { cause: error },
        );
      });
      // The owner itself as DATABASE_URL (e.g. the CLI's `user superadmin`): from PostgreSQL 16 the
      // creator of bilan_app holds only its admin option, so it grants itself the membership. A
      // user that may not grant is left to the check below, which says what to do.
      await grantApplicationRoles(db, runtime.name).catch(() => undefined);
    }
    // The first request would fail otherwise, with a message that says less.
    await db
      .asOwner((tx) => tx.query(`SELECT ${APPLICATION_ROLES.map((role) => `set_config('role', '${role}', true)`).join(', ')}`))
      .catch((error: unknown) => {
        throw new ConfigError(
          `DATABASE_URL: the user "${runtime.name}" cannot act as ${APPLICATION_ROLES.join(' and ')} (${(error as Error).message}); ` +
            `set BILAN_MIGRATION_DATABASE_URL, whose owner grants them, or run GRANT ${APPLICATION_ROLES.join(', ')} TO "${runtime.name}"`,
          { cause: error },
        );
      });
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
