/** What the payables module counts for the dashboard tiles (spec §2.4, GET /api/analytics/counts). */
import type { Tx } from '../../db/database.js';

/**
 * Bills and expenses, transaction groups and imported mails of the transaction's instance; with a
 * period (YYYY-MM-DD, inclusive) only those of it: bills by bill date, transaction groups by
 * execution date, mails by the day they were received in Switzerland (Europe/Zurich).
 */
export async function payablesCounts(
  tx: Tx,
  period: { dateFrom: string; dateTo: string } | null = null,
): Promise<{ payables: number; transactionGroups: number; mails: number }> {
  const [row] = await tx.query<{ payables: number; groups: number; mails: number }>(
    `SELECT (SELECT count(*)::int FROM payable WHERE $1::date IS NULL OR date BETWEEN $1::date AND $2::date) AS payables,
            (SELECT count(*)::int FROM transaction_group WHERE $1::date IS NULL OR execution_date BETWEEN $1::date AND $2::date) AS groups,
            (SELECT count(*)::int FROM mail
              WHERE $1::date IS NULL OR (received_at AT TIME ZONE 'Europe/Zurich')::date BETWEEN $1::date AND $2::date) AS mails`,
    [period?.dateFrom ?? null, period?.dateTo ?? null],
  );
  return { payables: row!.payables, transactionGroups: row!.groups, mails: row!.mails };
}
