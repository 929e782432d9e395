/**
 * Set-up for the accounting suites: a workplace whose ledger is prepared through the module's own
 * service functions (what onboarding calls), independent of the onboarding endpoints.
 */
import { readFileSync } from 'node:fs';
import { Currency, type CurrencyCode, type RoleName } from '@bilan/domain';
import { seedSwissSmeChart } from '../../src/modules/accounting/accounting.service.js';
import { createWorkplace, type TestServer, type Workplace } from '../helpers.js';

export const FIXTURES = new URL('../../../../fixtures/beancount-example/', import.meta.url);
export const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

export interface LedgerWorkplace extends Workplace {
  /** Ledger account id by number. */
  account: (number: string) => Promise<number>;
}

/**
 * A workplace with base currency `currency` and, unless `chart` is false, the Swiss SME chart.
 */
export async function ledgerWorkplace(
  server: TestServer,
  options: { currency?: CurrencyCode; chart?: boolean; role?: RoleName } = {},
): Promise<LedgerWorkplace> {
  const currency = options.currency ?? 'CHF';
  const workplace = await createWorkplace(server, { onboard: false, ...(options.role ? { role: options.role } : {}) });
  await server.db.withInstance(workplace.instanceId, async (tx) => {
    await tx.query('UPDATE instance SET currency_id = $2, initialized_at = now() WHERE id = $1', [workplace.instanceId, Currency[currency]]);
    if (options.chart ?? true) await seedSwissSmeChart(tx, workplace.instanceId, currency);
  });
  return {
    ...workplace,
    account: async (number: string) => {
      const [row] = await server.db.withInstance(workplace.instanceId, (tx) =>
        tx.query<{ id: number }>('SELECT id FROM ledger_account WHERE instance_id = $1 AND number = $2', [workplace.instanceId, number]),
      );
      if (!row) throw new Error(`no ledger account ${number}`);
      return row.id;
    },
  };
}

/** Row counts of the ledger tables of one instance (to prove that a refused request wrote nothing). */
export async function ledgerCounts(server: TestServer, instanceId: string) {
  const [row] = await server.db.withInstance(instanceId, (tx) =>
    tx.query<{ accounts: string; groups: string; entries: string; lines: string; balances: string }>(
      `SELECT (SELECT count(*) FROM ledger_account WHERE instance_id = $1) AS accounts,
              (SELECT count(*) FROM account_group WHERE instance_id = $1) AS groups,
              (SELECT count(*) FROM journal_entry WHERE instance_id = $1) AS entries,
              (SELECT count(*) FROM journal_line WHERE instance_id = $1) AS lines,
              (SELECT coalesce(sum(debit + credit), 0)::text FROM account_period_balance WHERE instance_id = $1) AS balances`,
      [instanceId],
    ),
  );
  return row!;
}

/** A two-line entry body: `amount` from `debit` account to `credit` account. */
export function simpleEntry(dateLedger: string, debitAccountId: number, creditAccountId: number, amount: string, description = 'test entry') {
  return {
    data: {
      dateLedger,
      description,
      entryAccounts: [
        { account: { id: debitAccountId }, amount, direction: 1 },
        { account: { id: creditAccountId }, amount, direction: -1 },
      ],
    },
  };
}
