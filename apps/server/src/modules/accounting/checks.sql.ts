/**
 * SQL of the accounting checks (checks.service.ts) and of the ledger integrity check
 * (balance.service.ts `checkLedger`): accounting's own tables only. Every query is bounded by an
 * index — journal_line_date_idx / journal_entry_date_idx for a date range, journal_line_account_idx
 * for one account — or reads the per-month table, so no check loads every posting into JavaScript.
 * A `range` of null means the whole ledger (what `balance/check` asks).
 */
import { Money } from '@bilan/domain';
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

/** An entry with its debit total (NUMERIC text). */
export type EntryWithTotal = EntryHead & { total: string };

/** What one scan of a range's postings finds about its entries (`scanEntries`). */
export interface EntryScan {
  /** Entries and postings in the range. */
  entries: number;
  lines: number;
  /** Entries whose debit − credit (`difference`, NUMERIC text) is not zero, by id, at most `limit`. */
  unbalanced: (EntryHead & { difference: string })[];
  /** Entries with fewer than two postings, by id, at most `limit`. */
  short: (EntryHead & { lines: number })[];
  /**
   * With `twins`: entries sharing date, debit total and description (trimmed, case ignored) with
   * another entry of the range, grouped, by date; at most `limit` entries in all.
   */
  duplicates: EntryWithTotal[][];
  /** How many entries are in such groups. */
  duplicateCount: number;
}

/** Entries whose date and debit total repeat: read at most this many (their descriptions decide). */
const MAX_TWINS = 5000;

/**
 * The entry checks of a range (or of the whole ledger) from one scan of its postings
 * (journal_line_date_idx): per entry its postings, debit − credit and debit total, from which come
 * the unbalanced entries, those with fewer than two postings and — with `twins` — the candidates for
 * duplicates (same date and debit total); only those entries' descriptions are read afterwards. An
 * entry without any posting has no line to scan: when the range's entry count differs from the
 * scan's, they are looked up.
 */
export async function scanEntries(
  tx: Tx,
  instanceId: string,
  range: DateRange | null,
  limit: number,
  options: { twins?: boolean } = {},
): Promise<EntryScan> {
  const twins = options.twins
    ? `UNION ALL (SELECT 'twin', p.entry_id, p.date_ledger::text, p.lines::text, p.difference::text, p.total::text FROM per_entry p
         JOIN (SELECT date_ledger, total FROM per_entry GROUP BY 1, 2 HAVING count(*) > 1) k USING (date_ledger, total)
        ORDER BY p.date_ledger, p.entry_id LIMIT ${MAX_TWINS})`
    : '';
  const rows = await tx.query<{ kind: 'summary' | 'faulty' | 'twin'; id: number | null; date: string | null; lines: string; difference: string; total: string }>(
    `WITH per_entry AS MATERIALIZED (
       SELECT entry_id, min(date_ledger) AS date_ledger, count(*) AS lines, sum(amount * direction) AS difference,
              coalesce(sum(amount) FILTER (WHERE direction = 1), 0) AS total
         FROM journal_line l WHERE l.instance_id = $1 ${lineRange(range)} GROUP BY entry_id
     )
     -- The summary row carries the number of postings in 'lines' and of entries with postings in 'total'.
     SELECT 'summary' AS kind, NULL::int AS id, NULL::text AS date, coalesce(sum(lines), 0)::text AS lines, '0' AS difference, count(*)::text AS total
       FROM per_entry
     UNION ALL (SELECT 'faulty', entry_id, date_ledger::text, lines::text, difference::text, total::text FROM per_entry
                 WHERE difference <> 0 OR lines < 2 ORDER BY entry_id LIMIT ${limit})
     ${twins}`,
    rangeParams(instanceId, range),
  );
  const summary = rows.find((row) => row.kind === 'summary')!;
  const scanned = Number(summary.total);
  const [counted] = await tx.query<{ entries: string }>(
    `SELECT count(*) AS entries FROM journal_entry e WHERE e.instance_id = $1 ${lineRange(range, 'e')}`,
    rangeParams(instanceId, range),
  );
  const entries = Number(counted!.entries);
  const empty =
    entries > scanned
      ? await tx.query<{ id: number }>(
          `SELECT e.id FROM journal_entry e WHERE e.instance_id = $1 ${lineRange(range, 'e')}
              AND NOT EXISTS (SELECT 1 FROM journal_line l WHERE l.instance_id = e.instance_id AND l.entry_id = e.id)
            ORDER BY e.id LIMIT ${limit}`,
          rangeParams(instanceId, range),
        )
      : [];
  const faulty = rows.filter((row) => row.kind === 'faulty');
  const twinRows = rows.filter((row) => row.kind === 'twin');
  const ids = [...new Set([...faulty, ...twinRows].map((row) => row.id!).concat(empty.map((row) => row.id)))];
  const heads = new Map(
    (ids.length
      ? await tx.query<EntryHead>('SELECT id, date_ledger::text AS date, description FROM journal_entry WHERE instance_id = $1 AND id = ANY ($2::int[])', [
          instanceId,
          ids,
        ])
      : []
    ).map((head) => [head.id, head]),
  );
  const head = (id: number) => heads.get(id) ?? { id, date: '', description: '' };

  const groups = new Map<string, EntryWithTotal[]>();
  for (const row of twinRows) {
    const entry = head(row.id!);
    const key = `${row.date}|${row.total}|${entry.description.trim().toLowerCase()}`;
    groups.set(key, [...(groups.get(key) ?? []), { ...entry, total: row.total }]);
  }
  const duplicates = [...groups.values()].filter((group) => group.length > 1);
  const short = [
    ...faulty.filter((row) => Number(row.lines) < 2).map((row) => ({ ...head(row.id!), lines: Number(row.lines) })),
    ...empty.map((row) => ({ ...head(row.id), lines: 0 })),
  ].sort((a, b) => a.id - b.id);
  const listed: EntryWithTotal[][] = [];
  let room = limit;
  for (const group of duplicates) {
    if (room <= 0) break;
    listed.push(group.slice(0, room));
    room -= group.length;
  }
  return {
    entries,
    lines: Number(summary.lines),
    unbalanced: faulty.filter((row) => !new Money(row.difference).isZero()).map((row) => ({ ...head(row.id!), difference: row.difference })),
    short: short.slice(0, limit),
    duplicates: listed,
    duplicateCount: duplicates.reduce((sum, group) => sum + group.length, 0),
  };
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
 * sum of all of them. `balance` is the account's balance at `date` (debit − credit, as the checks
 * read it from the month table).
 *
 * Counted from the other side, so a control account with a long history is not joined posting by
 * posting to its entries (at a million postings that join took 0.3–0.5 s per account): the
 * documents' own postings are found from their entries (journal_entry_document_idx on the source),
 * all postings are only counted (index-only, journal_line_account_idx), and the others are count
 * all − count documents' and balance − documents' sum. Only the newest `limit` others are read, a
 * backward range scan of journal_line_account_idx that stops when it has them.
 */
export async function selectPostingsFromOtherSources(
  tx: Tx,
  instanceId: string,
  accountId: number,
  date: string,
  sources: readonly string[],
  limit: number,
  balance: string,
): Promise<{ postings: PostingHead[]; count: number; sum: string }> {
  const [totals] = await tx.query<{ all_count: string; document_count: string; document_sum: string }>(
    `SELECT (SELECT count(*) FROM journal_line l WHERE l.instance_id = $1 AND l.account_id = $2 AND l.date_ledger <= $3) AS all_count,
            d.document_count, d.document_sum
       FROM (SELECT count(*) AS document_count, coalesce(sum(l.amount * l.direction), 0)::text AS document_sum
               FROM journal_entry e
               JOIN journal_line l ON l.instance_id = e.instance_id AND l.entry_id = e.id AND l.account_id = $2
              WHERE e.instance_id = $1 AND e.source = ANY ($4::text[]) AND e.date_ledger <= $3) d`,
    [instanceId, accountId, date, [...sources]],
  );
  const count = Number(totals!.all_count) - Number(totals!.document_count);
  const sum = new Money(balance).minus(totals!.document_sum).toFixed();
  if (count === 0) return { postings: [], count, sum };
  const postings = await tx.query<PostingHead>(
    `SELECT l.entry_id AS "entryId", l.date_ledger::text AS date, e.description, e.source, (l.amount * l.direction)::text AS amount
       FROM journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
      WHERE l.instance_id = $1 AND l.account_id = $2 AND l.date_ledger <= $3 AND e.source <> ALL ($4::text[])
      ORDER BY l.date_ledger DESC, l.entry_id DESC LIMIT ${limit}`,
    [instanceId, accountId, date, [...sources]],
  );
  return { postings, count, sum };
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
