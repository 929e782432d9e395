/**
 * The database's own guarantees, read from its catalogue (DESIGN.md "tenancy", decision 002): every
 * table with an instance_id has row-level security FORCE'd with a tenant policy; the application
 * roles are neither superusers nor RLS bypassers nor owners; the triggers' bookkeeping table
 * cannot be written by the application role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkplace, startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('database catalogue', () => {
  it('forces row-level security with a policy on every table with instance_id that the application role can touch', async () => {
    const tables = await server.db.asOwner((tx) =>
      tx.query<{ table: string; rls: boolean; forced: boolean; policies: string; app: boolean }>(
        `SELECT c.relname AS table, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
                (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid) AS policies,
                has_table_privilege('bilan_app', c.oid, 'SELECT, INSERT, UPDATE, DELETE') AS app
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
            AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'instance_id' AND NOT a.attisdropped)
          ORDER BY 1`,
      ),
    );
    expect(tables.filter((t) => t.app).length).toBeGreaterThan(20);
    const unguarded = tables.filter((t) => t.app && (!t.rls || !t.forced || Number(t.policies) === 0)).map((t) => t.table);
    expect(unguarded).toEqual([]);
    // The others are out of the application role's reach altogether: sign-in tables of bilan_auth
    // and the balance trigger's own queue.
    expect(tables.filter((t) => !t.app).map((t) => t.table)).toEqual([
      'auth_session',
      'journal_check_pending',
      'second_factor_login',
      'webauthn_challenge',
    ]);
  });

  it('runs application queries as roles that are not superuser, cannot bypass RLS and own nothing', async () => {
    const roles = await server.db.asOwner((tx) =>
      tx.query<{ rolname: string; rolsuper: boolean; rolbypassrls: boolean; owned: string }>(
        `SELECT r.rolname, r.rolsuper, r.rolbypassrls,
                (SELECT count(*) FROM pg_class c WHERE c.relowner = r.oid) AS owned
           FROM pg_roles r WHERE r.rolname IN ('bilan_app', 'bilan_auth') ORDER BY 1`,
      ),
    );
    expect(roles).toEqual([
      { rolname: 'bilan_app', rolsuper: false, rolbypassrls: false, owned: '0' },
      { rolname: 'bilan_auth', rolsuper: false, rolbypassrls: false, owned: '0' },
    ]);
  });

  it('lets the application read but never write the month balances the triggers keep', async () => {
    const workplace = await createWorkplace(server);
    const attempt = (sql: string) =>
      server.db.withInstance(workplace.instanceId, (tx) => tx.query(sql, [workplace.instanceId])).then(
        () => 'written',
        (error: { code?: string }) => error.code,
      );
    await expect(server.db.withInstance(workplace.instanceId, (tx) => tx.query('SELECT * FROM account_period_balance'))).resolves.toBeDefined();
    expect(await attempt('UPDATE account_period_balance SET debit = debit + 1 WHERE instance_id = $1')).toBe('42501');
    expect(await attempt('DELETE FROM account_period_balance WHERE instance_id = $1')).toBe('42501');
    expect(
      await attempt(
        `INSERT INTO account_period_balance (instance_id, account_id, period, debit)
         SELECT $1, id, '2025-01-01', 1 FROM ledger_account WHERE instance_id = $1 LIMIT 1`,
      ),
    ).toBe('42501');
  });
});
