/**
 * Per test run (STYLE.md #13): on PostgreSQL, one fresh database migrated once into a template that
 * every test file copies; on PGlite, one migrated data directory that every test file loads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';

export const ADMIN_URL = process.env.BILAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const engine = project.config.env?.BILAN_TEST_DB ?? process.env.BILAN_TEST_DB;
  if (engine === 'postgres') {
    const template = `bilan_tpl_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client(ADMIN_URL);
    try {
      await admin.connect();
    } catch (error) {
      throw new Error(
        `The PostgreSQL suite needs a server at ${ADMIN_URL} (set BILAN_TEST_PG_URL): ${(error as Error).message}`,
        { cause: error },
      );
    }
    await admin.query(`CREATE DATABASE ${template}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${template}`;
    const db = await openPostgres(url.toString(), { max: 1 });
    await migrate(db);
    await db.close();
    project.provide('pgTemplate', template);
    return async () => {
      // Test files drop their own copies; drop the template and anything a crashed run left behind.
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
        [template, `${template}_%`],
      );
      for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
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
    pgTemplate: string;
    pgliteTemplate: string;
  }
}
