/**
 * `npm start`: migrate, then serve the API and the built web app on one port (DESIGN.md).
 */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config);
  const app = await buildApp({ config, db });
  const close = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void close('SIGINT'));
  process.once('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Bilan ${config.databaseUrl ? 'on PostgreSQL' : `on embedded PGlite (${config.dataDir})`} at ${config.publicUrl}` +
      (config.localIdp ? ' — built-in identity provider at /oidc (development sign-in)' : ''),
  );
}

main().catch((error: unknown) => {
  // A refused setting or migration history is for the operator to read, not a stack trace.
  console.error(error instanceof ConfigError || error instanceof MigrationError ? error.message : error);
  process.exit(1);
});
