/**
 * `npm start`: migrate, then serve the API and the built web app on one port (DESIGN.md).
 */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { MigrationError } from './db/migrate.js';
import { openDatabase } from './db/open.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Start-up phases, logged once listening (decision 035; bench/startup measures the whole).
  const opening = performance.now();
  const db = await openDatabase(config);
  const building = performance.now();
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
  const listening = performance.now();
  app.log.info(
    { startupMs: { process: Math.round(listening), database: Math.round(building - opening), app: Math.round(listening - building) } },
    `listening ${Math.round(listening)} ms after the process started`,
  );
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
