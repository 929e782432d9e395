import { join } from 'node:path';
import type { Config } from '../config.js';
import { openPglite, openPostgres, type Database } from './database.js';
import { migrate } from './migrate.js';

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite in BILAN_DATA_DIR) and migrates it. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  const db = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(join(config.dataDir, 'pglite'));
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
