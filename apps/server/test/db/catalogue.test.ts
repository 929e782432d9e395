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

describe('the database refuses what the domain refuses (issue 11 §5, migration 0015)', () => {
  it('refuses a posting of 0.00 written directly as the application role', async () => {
    const workplace = await createWorkplace(server);
    const accounts = await server.db.withInstance(workplace.instanceId, (tx) =>
      tx.query<{ id: number }>("SELECT id FROM ledger_account WHERE instance_id = $1 AND number IN ('1020', '3200') ORDER BY number", [workplace.instanceId]),
    );
    const line = (id: number, direction: 1 | -1) => ({ account: { id }, amount: '10.00', direction });
    const posted = await workplace.api.post('/api/accounting/entry/insert', {
      data: { dateLedger: '2025-05-01', description: 'manual', entryAccounts: [line(accounts[0]!.id, 1), line(accounts[1]!.id, -1)] },
    });
    expect(posted.status).toBe(200);
    const refused = await server.db
      .withInstance(workplace.instanceId, (tx) =>
        tx.query(
          `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate)
           SELECT instance_id, id + 1000000, entry_id, date_ledger, account_id, 1, 0.00, currency_id, 0, 1
             FROM journal_line WHERE instance_id = $1 ORDER BY id LIMIT 1`,
          [workplace.instanceId],
        ),
      )
      .then(
        () => 'written',
        (error: { code?: string; constraint?: string; message?: string }) => `${error.code} ${error.constraint ?? error.message}`,
      );
    expect(refused).toMatch(/^23514 .*journal_line_amount_positive/);
    const [check] = await server.db.asOwner((tx) =>
      tx.query<{ validated: boolean }>("SELECT convalidated AS validated FROM pg_constraint WHERE conname = 'journal_line_amount_positive'"),
    );
    expect(check).toEqual({ validated: true });
  });

  it('gives every VAT rate column one type, numeric(7,5) with one bound (0 ≤ rate < 1)', async () => {
    const columns = await server.db.asOwner((tx) =>
      tx.query<{ table: string; type: string; domain: string | null }>(
        `SELECT c.relname AS table, format_type(a.atttypid, a.atttypmod) AS type, t.typname AS domain
           FROM pg_attribute a
           JOIN pg_class c ON c.oid = a.attrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace
           LEFT JOIN pg_type t ON t.oid = a.atttypid AND t.typtype = 'd'
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attname LIKE '%vat_rate%' AND NOT a.attisdropped
          ORDER BY 1`,
      ),
    );
    expect(columns.map((c) => c.table)).toEqual(['instance', 'invoice', 'invoice_item', 'payable', 'quote', 'quote_item', 'recurring_invoice', 'recurring_invoice_item']);
    expect(new Set(columns.map((c) => `${c.type} ${c.domain}`))).toEqual(new Set(['vat_rate vat_rate']));
    const [domain] = await server.db.asOwner((tx) =>
      tx.query<{ base: string; checks: string[] }>(
        `SELECT format_type(t.typbasetype, t.typtypmod) AS base,
                array(SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k WHERE k.contypid = t.oid) AS checks
           FROM pg_type t WHERE t.typname = 'vat_rate'`,
      ),
    );
    expect(domain!.base).toBe('numeric(7,5)');
    expect(domain!.checks).toHaveLength(1);
    // No table adds a second bound of its own, but the workplace's default rate (1 % to 99 %).
    const tableChecks = await server.db.asOwner((tx) =>
      tx.query<{ table: string }>(
        `SELECT k.conrelid::regclass::text AS table FROM pg_constraint k
          WHERE k.contype = 'c' AND k.conrelid <> 0 AND pg_get_constraintdef(k.oid) LIKE '%vat_rate%' ORDER BY 1`,
      ),
    );
    expect(tableChecks.map((c) => c.table)).toEqual(['instance']);
  });
});
