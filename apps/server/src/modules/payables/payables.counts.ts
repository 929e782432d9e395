/** What the payables module counts for the dashboard tiles (spec §2.4, GET /api/analytics/counts). */
import type { Tx } from '../../db/database.js';

/** Bills and expenses, transaction groups and imported mails of the transaction's instance. */
export async function payablesCounts(tx: Tx): Promise<{ payables: number; transactionGroups: number; mails: number }> {
  const [row] = await tx.query<{ payables: number; groups: number; mails: number }>(
    'SELECT (SELECT count(*)::int FROM payable) AS payables, (SELECT count(*)::int FROM transaction_group) AS groups, (SELECT count(*)::int FROM mail) AS mails',
  );
  return { payables: row!.payables, transactionGroups: row!.groups, mails: row!.mails };
}
