/**
 * SQL of the accounting checks (checks.service.ts) and of the ledger integrity check
 * (balance.service.ts `checkLedger`): accounting's own tables only. Every query is bounded by an
 * index — journal_line_date_idx / journal_entry_date_idx for a date range, journal_line_account_idx
 * for one account — or reads the per-month table, so no check loads every posting into JavaScript.
 * A `range` of null means the whole ledger (what `balance/check` asks).
 */
import type { Tx } from '../../db/database.js';
import { monthStart } from './balance.sql.js';

/** Inclusive ledger date range, YYYY-MM-DD. */
export type DateRange = {
  from: string;
  to: string;
};

/** An entry as the checks name it. */
export type EntryHead = {
  id: number;
  date: string;
  description: string;
};

// With a range, the lines' dates bound the scan ($2, $3); without, the whole instance. journal_line
// carries its entry's date (foreign key with ON UPDATE CASCADE, migration 0001).
const lineRange = (range: DateRange | null, alias = 'l') => (range ? `AND ${alias}.date_ledger BETWEEN $2 AND $3` : '');
const rangeParams = (instanceId: string, range: DateRange | null): unknown[] => (range ? [instanceId, range.from, range.to] : [instanceId]);

/** Number of entries and postings in the range. */
export async function countEntries(tx: Tx, instanceId: string, range: DateRange | null): Promise<{ entries: number; lines: number }> {
  const [row] = await tx.query<{ entries: string; lines: string }>(
    `SELECT (SELECT count(*) FROM journal_entry e WHERE e.instance_id = $1 ${lineRange(range, 'e')}) AS entries,
            (SELECT count(*) FROM journal_line l WHERE l.instance_id = $1 ${lineRange(range)}) AS lines`,
    rangeParams(instanceId, range),
  );
  return { entries: Number(row!.entries), lines: Number(row!.lines) };
}

/** Entries whose postings do not balance (debit − credit ≠ 0), by id, at most `limit`; difference is NUMERIC text. */
export async function selectUnbalancedEntries(
  tx: Tx,
  instanceId: string,
  range: DateRange | null,
  limit: number,
): Promise<(EntryHead & { difference: string })[]> {
  return tx.query<EntryHead & { difference: string }>(
    `SELECT u.entry_id AS id, e.date_ledger::text AS date, e.description, u.difference
       FROM (SELECT entry_id, sum(amount * direction)::text AS difference FROM journal_line l
              WHERE l.instance_id = $1 ${lineRange(range)} GROUP BY entry_id HAVING sum(amount * direction) <> 0
              ORDER BY entry_id LIMIT ${limit}) u
       JOIN journal_entry e ON e.instance_id = $1 AND e.id = u.entry_id
      ORDER BY u.entry_id`,
    rangeParams(instanceId, range),
  );
}

/** Entries with fewer than two postings, by id, at most `limit`. */
export async function selectShortEntries(
  tx: Tx,
  instanceId: string,
  range: DateRange | null,
  limit: number,
): Promise<(EntryHead & { lines: number })[]> {
  const rows = await tx.query<EntryHead & { lines: string }>(
    `SELECT e.id, e.date_ledger::text AS date, e.description, count(l.id) AS lines FROM journal_entry e
       LEFT JOIN journal_line l ON l.instance_id = e.instance_id AND l.entry_id = e.id
      WHERE e.instance_id = $1 ${lineRange(range, 'e')} GROUP BY e.instance_id, e.id HAVING count(l.id) < 2 ORDER BY e.id LIMIT ${limit}`,
    rangeParams(instanceId, range),
  );
  return rows.map((row) => ({ ...row, lines: Number(row.lines) }));
}

/** An account and month whose row in account_period_balance differs from the sum of its postings. */
export type MonthDrift = {
  accountId: number;
  number: string | null;
  /** First day of the month, YYYY-MM-DD. */
  period: string;
  postedDebit: string;
  postedCredit: string;
  storedDebit: string;
  storedCredit: string;
};

/**
 * Months (of the range's months, whole; or all) where account_period_balance differs from the
 * postings, by account id and month, at most `limit`.
 */
export async function selectMonthDrift(tx: Tx, instanceId: string, range: DateRange | null, limit: number): Promise<MonthDrift[]> {
  const months = range ? { from: monthStart(range.from), to: monthStart(range.to) } : null;
  const lines = months ? `AND date_ledger >= $2 AND date_ledger < ($3::date + interval '1 month')` : '';
  const periods = months ? 'AND period BETWEEN $2 AND $3' : '';
  return tx.query<MonthDrift>(
    `WITH posted AS (
       SELECT account_id, date_trunc('month', date_ledger)::date AS period,
              coalesce(sum(amount) FILTER (WHERE direction = 1), 0) AS debit,
              coalesce(sum(amount) FILTER (WHERE direction = -1), 0) AS credit
         FROM journal_line WHERE instance_id = $1 ${lines} GROUP BY 1, 2
     ), stored AS (
       SELECT account_id, period, debit, credit FROM account_period_balance WHERE instance_id = $1 ${periods}
     ), drift AS (
       SELECT coalesce(p.account_id, s.account_id) AS account_id, coalesce(p.period, s.period) AS period,
              coalesce(p.debit, 0) AS posted_debit, coalesce(p.credit, 0) AS posted_credit,
              coalesce(s.debit, 0) AS stored_debit, coalesce(s.credit, 0) AS stored_credit
         FROM posted p FULL JOIN stored s ON s.account_id = p.account_id AND s.period = p.period
        WHERE coalesce(p.debit, 0) <> coalesce(s.debit, 0) OR coalesce(p.credit, 0) <> coalesce(s.credit, 0)
        ORDER BY 1, 2 LIMIT ${limit}
     )
     SELECT d.account_id AS "accountId", a.number, d.period::text AS period,
            d.posted_debit::text AS "postedDebit", d.posted_credit::text AS "postedCredit",
            d.stored_debit::text AS "storedDebit", d.stored_credit::text AS "storedCredit"
       FROM drift d LEFT JOIN ledger_account a ON a.instance_id = $1 AND a.id = d.account_id
      ORDER BY 1, 3`,
    months ? [instanceId, months.from, months.to] : [instanceId],
  );
}

/** A ledger account with what the checks classify it by. */
export type CheckAccount = {
  id: number;
  number: string;
  name: string;
  typeId: number;
  functionTypeId: number | null;
  /**
   * The 3-digit account group it belongs to: the highest group number of the instance's chart at
   * or below the account number's first three digits (Swiss SME chart: 1020 → 100 "Flüssige
   * Mittel", 1100 → 110), null when the chart has no such group.
   */
  group: string | null;
};

/** Every ledger account of the instance, by number. */
export async function selectCheckAccounts(tx: Tx, instanceId: string): Promise<CheckAccount[]> {
  return tx.query<CheckAccount>(
    `SELECT a.id, a.number, a.name, a.type_id AS "typeId", a.function_type_id AS "functionTypeId",
            (SELECT g.number FROM account_group g
              WHERE g.instance_id = a.instance_id AND length(g.number) = 3 AND g.number COLLATE "C" <= left(a.number, 3) COLLATE "C"
              ORDER BY g.number COLLATE "C" DESC LIMIT 1) AS "group"
       FROM ledger_account a WHERE a.instance_id = $1 ORDER BY a.number COLLATE "C"`,
    [instanceId],
  );
}

/** A posting as the checks list it: signed amount (debit positive), NUMERIC text. */
export type PostingHead = {
  entryId: number;
  date: string;
  description: string;
  source: string;
  amount: string;
};

/**
 * Postings on `accountId` dated on or before `date` whose entry's source is none of `sources`
 * (e.g. manual entries on the receivables account): the newest `limit`, with the count and signed
 * sum of all of them. Range scan of journal_line_account_idx.
 */
export async function selectPostingsFromOtherSources(
  tx: Tx,
  instanceId: string,
  accountId: number,
  date: string,
  sources: readonly string[],
  limit: number,
): Promise<{ postings: PostingHead[]; count: number; sum: string }> {
  const rows = await tx.query<PostingHead & { count: string; sum: string }>(
    `SELECT l.entry_id AS "entryId", l.date_ledger::text AS date, e.description, e.source, (l.amount * l.direction)::text AS amount,
            count(*) OVER () AS count, coalesce(sum(l.amount * l.direction) OVER (), 0)::text AS sum
       FROM journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
      WHERE l.instance_id = $1 AND l.account_id = $2 AND l.date_ledger <= $3 AND e.source <> ALL ($4::text[])
      ORDER BY l.date_ledger DESC, l.entry_id DESC LIMIT ${limit}`,
    [instanceId, accountId, date, [...sources]],
  );
  return {
    postings: rows.map(({ entryId, date: day, description, source, amount }) => ({ entryId, date: day, description, source, amount })),
    count: Number(rows[0]?.count ?? 0),
    sum: rows[0]?.sum ?? '0',
  };
}

/**
 * Postings on `accountIds` in `range` on side `direction` (1 debit, -1 credit) whose entry's source
 * is none of `sources`: the first `limit` by date, with their count and sum (amounts positive).
 */
export async function selectSidePostingsFromOtherSources(
  tx: Tx,
  instanceId: string,
  accountIds: readonly number[],
  range: DateRange,
  direction: 1 | -1,
  sources: readonly string[],
  limit: number,
): Promise<{ postings: (PostingHead & { accountId: number })[]; count: number; sum: string }> {
  if (accountIds.length === 0) return { postings: [], count: 0, sum: '0' };
  const rows = await tx.query<PostingHead & { accountId: number; count: string; sum: string }>(
    `SELECT l.entry_id AS "entryId", l.account_id AS "accountId", l.date_ledger::text AS date, e.description, e.source, l.amount::text AS amount,
            count(*) OVER () AS count, coalesce(sum(l.amount) OVER (), 0)::text AS sum
       FROM journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
      WHERE l.instance_id = $1 AND l.account_id = ANY ($2::int[]) AND l.date_ledger BETWEEN $3 AND $4 AND l.direction = $5
        AND e.source <> ALL ($6::text[])
      ORDER BY l.date_ledger, l.entry_id LIMIT ${limit}`,
    [instanceId, [...accountIds], range.from, range.to, direction, [...sources]],
  );
  return {
    postings: rows.map(({ entryId, accountId, date, description, source, amount }) => ({ entryId, accountId, date, description, source, amount })),
    count: Number(rows[0]?.count ?? 0),
    sum: rows[0]?.sum ?? '0',
  };
}

/** An entry with its debit total (NUMERIC text). */
export type EntryWithTotal = EntryHead & { total: string };

/** Entries dated after `date`: the first `limit` by date, and how many there are. Range scan of journal_entry_date_idx. */
export async function selectEntriesAfter(tx: Tx, instanceId: string, date: string, limit: number): Promise<{ entries: EntryWithTotal[]; count: number }> {
  const rows = await tx.query<EntryWithTotal & { count: string }>(
    `WITH later AS (SELECT id, date_ledger, description, count(*) OVER () AS count FROM journal_entry
                     WHERE instance_id = $1 AND date_ledger > $2 ORDER BY date_ledger, id LIMIT ${limit})
     SELECT later.id, later.date_ledger::text AS date, later.description, later.count,
            (SELECT coalesce(sum(l.amount), 0) FROM journal_line l WHERE l.instance_id = $1 AND l.entry_id = later.id AND l.direction = 1)::text AS total
       FROM later ORDER BY later.date_ledger, later.id`,
    [instanceId, date],
  );
  return { entries: rows.map(({ id, date: day, description, total }) => ({ id, date: day, description, total })), count: Number(rows[0]?.count ?? 0) };
}

/**
 * Entries in `range` that share their date, debit total and description (after trimming and
 * ignoring case) with another entry of the range: groups of at least two, by date, at most
 * `limit` entries in all. The totals come from one scan of the range's postings
 * (journal_line_date_idx); descriptions are read only for entries whose date and total repeat.
 */
export async function selectDuplicateEntries(tx: Tx, instanceId: string, range: DateRange, limit: number): Promise<{ groups: EntryWithTotal[][]; count: number }> {
  const rows = await tx.query<EntryWithTotal & { key: string; count: string }>(
    `WITH per_entry AS (
       SELECT entry_id, date_ledger, sum(amount) AS total FROM journal_line
        WHERE instance_id = $1 AND date_ledger BETWEEN $2 AND $3 AND direction = 1 GROUP BY entry_id, date_ledger
     ), same_total AS (
       SELECT p.entry_id, p.date_ledger, p.total FROM per_entry p
         JOIN (SELECT date_ledger, total FROM per_entry GROUP BY 1, 2 HAVING count(*) > 1) s USING (date_ledger, total)
     ), described AS (
       SELECT t.entry_id, t.date_ledger, t.total, e.description,
              count(*) OVER (PARTITION BY t.date_ledger, t.total, lower(btrim(e.description))) AS copies,
              dense_rank() OVER (ORDER BY t.date_ledger, t.total, lower(btrim(e.description))) AS key
         FROM same_total t JOIN journal_entry e ON e.instance_id = $1 AND e.id = t.entry_id
     )
     SELECT entry_id AS id, date_ledger::text AS date, description, total::text AS total, key::text AS key, count(*) OVER () AS count
       FROM described WHERE copies > 1 ORDER BY date_ledger, key, entry_id LIMIT ${limit}`,
    [instanceId, range.from, range.to],
  );
  const groups = new Map<string, EntryWithTotal[]>();
  for (const { id, date, description, total, key } of rows) groups.set(key, [...(groups.get(key) ?? []), { id, date, description, total }]);
  return { groups: [...groups.values()], count: Number(rows[0]?.count ?? 0) };
}
