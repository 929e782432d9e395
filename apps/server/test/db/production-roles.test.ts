/**
 * Production set-up on a real PostgreSQL server (issue 11 §4, README "Production database"): an
 * owner without SUPERUSER migrates through BILAN_MIGRATION_DATABASE_URL, the server runs as a login
 * role without SUPERUSER or BYPASSRLS, and refuses to start in production as a role that RLS would
 * not bind. PGlite has no roles to speak of: skipped there.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { openDatabase } from '../../src/db/open.js';
import { ledgerWorkplace, simpleEntry } from '../accounting/ledger.js';
import { adminUrl, dropDatabase, engine, freePort, type TestServer } from '../helpers.js';

const suffix = randomBytes(4).toString('hex');
const password = randomBytes(12).toString('hex');
const names = {
  database: `${engine === 'postgres' ? inject('pgTemplate') : 'none'}_prod_${suffix}`,
  owner: `bilan_test_owner_${suffix}`,
  runtime: `bilan_test_runtime_${suffix}`,
  bypass: `bilan_test_bypass_${suffix}`,
  stranger: `bilan_test_stranger_${suffix}`,
};
let admin: pg.Client;

/** A URL to the throwaway database as `user` (the admin's own user when undefined). */
function urlAs(user?: string): string {
  const url = new URL(adminUrl());
  if (user) {
    url.username = user;
    url.password = password;
  }
  url.pathname = `/${names.database}`;
  return url.toString();
}
const settings = { dataDir: join(tmpdir(), 'bilan-unused'), migrationDatabaseUrl: undefined, preparedStatements: true };

describe.skipIf(engine !== 'postgres')('production database roles', () => {
  beforeAll(async () => {
    admin = new pg.Client(adminUrl());
    await admin.connect();
    // The README's set-up, as the cluster's superuser.
    await admin.query(`CREATE ROLE ${names.owner} LOGIN CREATEROLE PASSWORD '${password}'`);
    await admin.query(`CREATE ROLE ${names.runtime} LOGIN NOINHERIT PASSWORD '${password}'`);
    await admin.query(`CREATE DATABASE ${names.database} OWNER ${names.owner}`);
    // The application roles are cluster-wide and this run's template already created them; on a
    // fresh cluster the owner creates them and so holds their admin option (PostgreSQL 16+).
    await admin.query(`GRANT bilan_app, bilan_auth TO ${names.owner} WITH ADMIN OPTION`);
    await admin.query(`CREATE ROLE ${names.bypass} LOGIN BYPASSRLS PASSWORD '${password}'`);
    await admin.query(`CREATE ROLE ${names.stranger} LOGIN PASSWORD '${password}'`);
  });
  afterAll(async () => {
    await dropDatabase(admin, names.database);
    // The runtime role first: the owner granted its memberships.
    for (const role of [names.runtime, names.bypass, names.stranger, names.owner]) await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('migrates as a non-superuser owner and serves real requests as a login role without SUPERUSER or BYPASSRLS', async () => {
    const db = await openDatabase({ ...settings, env: 'production', databaseUrl: urlAs(names.runtime), migrationDatabaseUrl: urlAs(names.owner) });
    let server: TestServer | undefined;
    try {
      const port = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      const config = loadConfig({
        NODE_ENV: 'production',
        PORT: String(port),
        BILAN_PUBLIC_URL: baseUrl,
        BILAN_WEB_DIST: join(tmpdir(), 'bilan-no-web'),
        LOG_LEVEL: 'silent',
        DATABASE_URL: urlAs(names.runtime),
        BILAN_MIGRATION_DATABASE_URL: urlAs(names.owner),
      });
      const app = await buildApp({ config, db });
      await app.listen({ port, host: '127.0.0.1' });
      server = { app, db, config, baseUrl, close: () => app.close() };

      // A signed-in user posts an entry over HTTP: tenant roles, RLS and the owner's
      // SECURITY DEFINER balance triggers all run without a superuser anywhere.
      const workplace = await ledgerWorkplace(server);
      const entry = await workplace.api.post('/api/accounting/entry/insert', simpleEntry('2024-01-05', await workplace.account('1020'), await workplace.account('3200'), '10.00'));
      expect(entry.status).toBe(200);
      const check = await workplace.api.get('/api/accounting/balance/check');
      expect(check.status).toBe(200);

      // Everything the migrations created belongs to the owner, nothing to the runtime role.
      const inside = new pg.Client(urlAs());
      await inside.connect();
      try {
        const owners = await inside.query<{ owner: string }>(
          `SELECT DISTINCT pg_get_userbyid(c.relowner) AS owner FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public' WHERE c.relkind = 'r'`,
        );
        expect(owners.rows).toEqual([{ owner: names.owner }]);
        const [runtime] = (
          await inside.query<{ rolsuper: boolean; rolbypassrls: boolean }>('SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1', [names.runtime])
        ).rows;
        expect(runtime).toEqual({ rolsuper: false, rolbypassrls: false });
      } finally {
        await inside.end();
      }
    } finally {
      await server?.close();
      await db.close();
    }
  });

  it('refuses to start in production as a superuser or a role that bypasses row-level security', async () => {
    const refusal = (databaseUrl: string, env: 'production' | 'test' = 'production') =>
      openDatabase({ ...settings, env, databaseUrl }).then(
        async (db: Database) => {
          await db.close();
          return 'started';
        },
        (error: unknown) => error,
      );
    const superuser = await refusal(urlAs());
    expect(superuser).toBeInstanceOf(ConfigError);
    expect((superuser as Error).message).toMatch(/^DATABASE_URL: the user "\w+" is a superuser; .*BILAN_MIGRATION_DATABASE_URL/);
    const bypass = await refusal(urlAs(names.bypass));
    expect(bypass).toBeInstanceOf(ConfigError);
    expect((bypass as Error).message).toContain(`the user "${names.bypass}" is allowed to bypass row-level security`);
    // Outside production a superuser URL stays the simple set-up (README Quick start, the tests).
    expect(await refusal(urlAs(), 'test')).toBe('started');
  });

  it('starts with the owner alone as DATABASE_URL (how the CLI changes platform rights)', async () => {
    const db = await openDatabase({ ...settings, env: 'production', databaseUrl: urlAs(names.owner) });
    try {
      expect(await db.withAuth((tx) => tx.query('SELECT current_user AS role'))).toEqual([{ role: 'bilan_auth' }]);
    } finally {
      await db.close();
    }
  });

  it('says what to set when the runtime user may not migrate and no migration URL is given', async () => {
    const refusal = await openDatabase({ ...settings, env: 'production', databaseUrl: urlAs(names.stranger) }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toMatch(new RegExp(`^DATABASE_URL: the user "${names.stranger}" may not migrate .*BILAN_MIGRATION_DATABASE_URL`));
  });
});
