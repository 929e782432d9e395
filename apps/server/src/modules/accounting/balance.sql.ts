/**
 * Balances at dates, read from the per-month table `account_period_balance` for whole months and
 * from `journal_line` only for the days of a last, partial month (index journal_line_date_idx). A
 * ledger of a million postings answers from a few thousand month rows instead of scanning them all.
 */
import { Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/** Cumulative debit and credit of one account, decimal strings in the instance currency. */
export interface Turnover {
  debit: string;
  credit: string;
}

/** The last date that may be asked for (spec §9 date year range): "all postings". */
export const END_OF_TIME = '2300-12-31';

const pad = (value: number) => String(value).padStart(2, '0');

/** First day of the month of `date` (YYYY-MM-DD). */
export const monthStart = (date: string) => `${date.slice(0, 7)}-01`;

/** The day before `date`. */
export function dayBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** Last day of the month of `date`. */
export function monthEnd(date: string): string {
  const [year, month] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return `${date.slice(0, 7)}-${pad(new Date(Date.UTC(year, month, 0)).getUTCDate())}`;
}

/** First day of the month after `date`'s month. */
function nextMonthStart(date: string): string {
  const [year, month] = [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  return month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`;
}

/**
 * Months strictly before this date are read from the per-month table; a month-end date counts its
 * whole month, any other date reads the postings of its month up to itself.
 */
const wholeMonthsBefore = (date: string) => (date === monthEnd(date) ? nextMonthStart(date) : monthStart(date));

/**
 * For each end date (same order as given), each account's cumulative debit and credit over every
 * posting dated on or before it; accounts without month rows or postings are absent. With
 * `accountId`, only that account. Two queries whatever the number of dates.
 */
export async function selectTurnoversAt(
  tx: Tx,
  instanceId: string,
  endDates: readonly string[],
  accountId?: number,
): Promise<Map<number, Turnover>[]> {
  const bounds = endDates.map(wholeMonthsBefore);
  const sortedBounds = [...new Set(bounds)].sort();
  // width_bucket numbers months 0 before the first bound and i in [bound i, bound i+1) (1-based
  // bounds), so the end date whose bound is sortedBounds[k] sums buckets 0 … k.
  const monthRows = await tx.query<{ account_id: number; bucket: number; debit: string; credit: string }>(
    `SELECT account_id, width_bucket(period, $2::date[]) AS bucket, sum(debit)::text AS debit, sum(credit)::text AS credit
       FROM account_period_balance
      WHERE instance_id = $1 AND period < $3::date AND ($4::int IS NULL OR account_id = $4)
      GROUP BY 1, 2`,
    [instanceId, sortedBounds, sortedBounds[sortedBounds.length - 1], accountId ?? null],
  );
  const partial = endDates.map((date, ord) => ({ ord, from: bounds[ord]!, to: date })).filter((range) => range.from <= range.to);
  const dayRows = partial.length
    ? await tx.query<{ ord: number; account_id: number; debit: string; credit: string }>(
        // LATERAL: one range scan of journal_line_date_idx per date, whatever the table statistics say.
        `SELECT r.ord, p.account_id, p.debit, p.credit
           FROM unnest($2::int[], $3::date[], $4::date[]) AS r(ord, date_from, date_to)
          CROSS JOIN LATERAL (
                SELECT l.account_id,
                       coalesce(sum(l.amount) FILTER (WHERE l.direction = 1), 0)::text AS debit,
                       coalesce(sum(l.amount) FILTER (WHERE l.direction = -1), 0)::text AS credit
                  FROM journal_line l
                 WHERE l.instance_id = $1 AND l.date_ledger BETWEEN r.date_from AND r.date_to
                   AND ($5::int IS NULL OR l.account_id = $5)
                 GROUP BY l.account_id) p`,
        [instanceId, partial.map((r) => r.ord), partial.map((r) => r.from), partial.map((r) => r.to), accountId ?? null],
      )
    : [];
  return combineTurnovers(endDates.length, bounds, sortedBounds, monthRows, dayRows);
}

const ZERO: Turnover = { debit: '0', credit: '0' };

/** journal_entry.source of year-end closing entries (issue 12 §3). */
export const CLOSING_SOURCE = 'closing';

/**
 * Debit and credit per account of the closing entries dated dateFrom…dateTo (inclusive), for the
 * figures of a period "before closing" (income statement, analytics). Reads the partial index
 * journal_entry_closing_idx (migration 0018): a handful of entries per year.
 */
export async function selectClosingTurnovers(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<Map<number, Turnover>> {
  const rows = await tx.query<{ account_id: number; debit: string; credit: string }>(
    `SELECT l.account_id,
            coalesce(sum(l.amount) FILTER (WHERE l.direction = 1), 0)::text AS debit,
            coalesce(sum(l.amount) FILTER (WHERE l.direction = -1), 0)::text AS credit
       FROM journal_entry e
       JOIN journal_line l ON l.instance_id = e.instance_id AND l.entry_id = e.id
      WHERE e.instance_id = $1 AND e.source = '${CLOSING_SOURCE}' AND e.date_ledger BETWEEN $2 AND $3
      GROUP BY l.account_id`,
    [instanceId, dateFrom, dateTo],
  );
  return new Map(rows.map((row) => [row.account_id, { debit: row.debit, credit: row.credit }]));
}

/** Adds two turnovers exactly (decimal.js; the values are NUMERIC text from the database). */
const addTurnover = (a: Turnover, b: Turnover): Turnover => ({
  debit: new Money(a.debit).plus(b.debit).toFixed(),
  credit: new Money(a.credit).plus(b.credit).toFixed(),
});

function combineTurnovers(
  count: number,
  bounds: readonly string[],
  sortedBounds: readonly string[],
  monthRows: readonly { account_id: number; bucket: number; debit: string; credit: string }[],
  dayRows: readonly { ord: number; account_id: number; debit: string; credit: string }[],
): Map<number, Turnover>[] {
  // Per account: sums per bucket, then prefix sums so the date with bound k reads buckets 0 … k at once.
  const buckets = new Map<number, Turnover[]>();
  for (const row of monthRows) {
    let list = buckets.get(row.account_id);
    if (!list) buckets.set(row.account_id, (list = sortedBounds.map(() => ZERO)));
    list[row.bucket] = { debit: row.debit, credit: row.credit };
  }
  const prefix = new Map<number, Turnover[]>();
  for (const [account, list] of buckets) {
    const sums: Turnover[] = [];
    let running = ZERO;
    for (const bucket of list) {
      running = addTurnover(running, bucket);
      sums.push(running);
    }
    prefix.set(account, sums);
  }
  const result: Map<number, Turnover>[] = [];
  for (let ord = 0; ord < count; ord += 1) {
    const k = sortedBounds.indexOf(bounds[ord]!);
    const atDate = new Map<number, Turnover>();
    for (const [account, sums] of prefix) atDate.set(account, sums[k]!);
    result.push(atDate);
  }
  for (const row of dayRows) {
    const atDate = result[row.ord]!;
    atDate.set(row.account_id, addTurnover(atDate.get(row.account_id) ?? ZERO, row));
  }
  return result;
}

/** One account's sums for the balance snapshot (spec §3 "Account balance snapshot"), NUMERIC text. */
export interface SnapshotSums {
  account_id: number;
  account_number: string;
  account_name: string;
  account_currency_id: number;
  sum_base: string;
  sum_base_trade: string;
  sum_native: string;
  sum_native_trade: string;
}

/**
 * Per account with postings dated on or before `date` (optionally only `accountIds`), the signed
 * sums of its postings (debit +, credit −) split by whether the posting's currency is the
 * account's own (balance.service.ts `accountSnapshots` defines the fields). One scan of the
 * account's postings up to the date (journal_line_account_idx when accounts are named): the native
 * amounts live only on the postings, not in the per-month table.
 */
export async function selectSnapshotSums(tx: Tx, instanceId: string, date: string, accountIds: readonly number[] | null): Promise<SnapshotSums[]> {
  return tx.query<SnapshotSums & Record<string, unknown>>(
    `WITH sums AS (
       SELECT l.account_id,
              sum(l.amount * l.direction) AS sum_base,
              coalesce(sum(l.amount * l.direction) FILTER (WHERE l.currency_id <> a.currency_id), 0) AS sum_base_trade,
              -- The posting's amount in the account's currency: its original amount when it is in that
              -- currency; its base amount when the account is kept in the books' currency; else none is recorded.
              sum(CASE WHEN l.currency_id = a.currency_id THEN l.amount_original
                       WHEN a.currency_id = b.books THEN l.amount
                       ELSE 0 END * l.direction) AS sum_native,
              coalesce(sum(CASE WHEN a.currency_id = b.books THEN l.amount ELSE 0 END * l.direction)
                         FILTER (WHERE l.currency_id <> a.currency_id), 0) AS sum_native_trade
         FROM journal_line l
         JOIN ledger_account a ON a.instance_id = l.instance_id AND a.id = l.account_id
        CROSS JOIN (SELECT instance_currency_id($1) AS books) b
        WHERE l.instance_id = $1 AND l.date_ledger <= $2::date AND ($3::int[] IS NULL OR l.account_id = ANY ($3::int[]))
        GROUP BY l.account_id
     )
     SELECT s.account_id, a.number AS account_number, a.name AS account_name, a.currency_id AS account_currency_id,
            s.sum_base::text AS sum_base, s.sum_base_trade::text AS sum_base_trade,
            s.sum_native::text AS sum_native, s.sum_native_trade::text AS sum_native_trade
       FROM sums s JOIN ledger_account a ON a.instance_id = $1 AND a.id = s.account_id
      ORDER BY a.number`,
    [instanceId, date, accountIds === null ? null : [...accountIds]],
  );
}
