/**
 * Data access for journal entries and their postings (journal_line). Writes are set-based: one
 * multi-row INSERT … SELECT FROM unnest(…) per batch, so the statement-level triggers of migration
 * 0001 (lock date, per-month balances, balance check at commit) run once per batch, not per row.
 */
import { sumMoney, toFixedAmount, type CurrencyCode, type VatRole } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { containsPattern } from '../../db/like.js';
import { afterKey, countedPage, decodeCursor, keyCompare, limitOffset, pageOf, type CountedRow, type PageRequest } from '../../db/paging.js';
import { searchWords, textFilter, wordSets, type TextKey } from '../../db/search.js';
import { currencyCode } from './ledger-account.sql.js';

/** One posting as answered by the API (docs/api.md "JournalLine"). */
export type JournalLine = {
  id: number;
  account: { id: number; number: string; name: string };
  /** Absolute amount in the instance currency, 2 decimals. */
  amount: string;
  /** +1 debit, -1 credit (spec §3 DebitCredit). */
  direction: 1 | -1;
  /** Amount in `currency`, at least 2 decimals. */
  originalAmount: string;
  /** Instance-currency units per unit of `currency`. */
  exchangeRate: string;
  currency: CurrencyCode;
  description: string | null;
  /** The posting's VAT (migration 0023, decision 019); null for a posting without a VAT code. */
  vat: PostingVat | null;
};

/**
 * VAT of a posting: its code, its role (the base, the tax, or an acquisition tax's deduction), the
 * rate applied in percent ("8.1"), and the base and tax, each signed for the return (positive in
 * the code's normal direction: sales credit, input debit), 2 decimals.
 */
export type PostingVat = { code: string; role: VatRole; percent: string; base: string; amount: string };

/** A journal entry with its postings (docs/api.md "JournalEntry"). */
export type JournalEntry = {
  id: number;
  dateLedger: string;
  description: string;
  source: string;
  entryAccounts: JournalLine[];
  /** Sum of the debit postings (= sum of the credit postings), instance currency, 2 decimals. */
  debitTotal: string;
};

/** "100.0000000000" → "100.00", "0.1234500000" → "0.12345": exact, trailing zeros trimmed down to `minDecimals`. */
export function trimDecimal(value: string, minDecimals: number): string {
  if (!value.includes('.')) return minDecimals > 0 ? `${value}.${'0'.repeat(minDecimals)}` : value;
  const [whole, fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(minDecimals, '0');
  return trimmed ? `${whole}.${trimmed}` : whole!;
}

type LineRow = {
  id: number;
  entry_id: number;
  account_id: number;
  account_number: string;
  account_name: string;
  amount: string;
  direction: 1 | -1;
  currency_id: number;
  amount_original: string;
  exchange_rate: string;
  description: string | null;
  vat_code: string | null;
  vat_role: VatRole | null;
  vat_percent: string | null;
  vat_base: string | null;
  vat_amount: string | null;
};

const toJournalLine = (row: LineRow): JournalLine => ({
  id: row.id,
  account: { id: row.account_id, number: row.account_number, name: row.account_name },
  amount: toFixedAmount(row.amount),
  direction: row.direction,
  originalAmount: trimDecimal(row.amount_original, 2),
  exchangeRate: trimDecimal(row.exchange_rate, 0),
  currency: currencyCode(row.currency_id),
  description: row.description,
  vat:
    row.vat_code === null
      ? null
      : {
          code: row.vat_code,
          role: row.vat_role!,
          percent: trimDecimal(row.vat_percent!, 1),
          base: toFixedAmount(row.vat_base!),
          amount: toFixedAmount(row.vat_amount!),
        },
});

const LINE_COLUMNS = `l.id, l.entry_id, l.account_id, a.number AS account_number, a.name AS account_name, l.amount::text AS amount,
  l.direction, l.currency_id, l.amount_original::text AS amount_original, l.exchange_rate::text AS exchange_rate, l.description,
  l.vat_code, l.vat_role, l.vat_percent::text AS vat_percent, l.vat_base::text AS vat_base, l.vat_amount::text AS vat_amount`;

/** Postings by line id (for the line answers of entry/account/update). */
export async function selectJournalLine(tx: Tx, instanceId: string, lineId: number): Promise<(JournalLine & { entryId: number; dateLedger: string }) | undefined> {
  const [row] = await tx.query<LineRow & { date_ledger: string }>(
    `SELECT ${LINE_COLUMNS}, l.date_ledger
       FROM journal_line l JOIN ledger_account a ON a.instance_id = l.instance_id AND a.id = l.account_id
      WHERE l.instance_id = $1 AND l.id = $2`,
    [instanceId, lineId],
  );
  return row ? { ...toJournalLine(row), entryId: row.entry_id, dateLedger: row.date_ledger } : undefined;
}

/** Journal entries with their postings, in the order of `entryIds`; unknown ids are left out. */
export async function selectJournalEntries(tx: Tx, instanceId: string, entryIds: readonly number[]): Promise<JournalEntry[]> {
  if (entryIds.length === 0) return [];
  const entries = await tx.query<{ id: number; date_ledger: string; description: string; source: string }>(
    `SELECT id, date_ledger, description, source FROM journal_entry WHERE instance_id = $1 AND id = ANY ($2::int[])`,
    [instanceId, [...entryIds]],
  );
  const lines = await tx.query<LineRow>(
    `SELECT ${LINE_COLUMNS}
       FROM journal_line l JOIN ledger_account a ON a.instance_id = l.instance_id AND a.id = l.account_id
      WHERE l.instance_id = $1 AND l.entry_id = ANY ($2::int[])
      ORDER BY l.entry_id, l.id`,
    [instanceId, [...entryIds]],
  );
  const byEntry = new Map<number, LineRow[]>();
  for (const line of lines) {
    const list = byEntry.get(line.entry_id);
    if (list) list.push(line);
    else byEntry.set(line.entry_id, [line]);
  }
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  return entryIds.flatMap((entryId) => {
    const entry = byId.get(entryId);
    if (!entry) return [];
    const entryLines = byEntry.get(entryId) ?? [];
    return [
      {
        id: entry.id,
        dateLedger: entry.date_ledger,
        description: entry.description,
        source: entry.source,
        entryAccounts: entryLines.map(toJournalLine),
        debitTotal: toFixedAmount(sumMoney(entryLines.filter((l) => l.direction === 1).map((l) => l.amount))),
      },
    ];
  });
}

export interface JournalEntryFilter {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  text?: string | undefined;
  accountId?: number | undefined;
}

/**
 * One page of the entries matching `filter` (ids in order: date, then id) and how many match,
 * counted up to COUNT_CAP. With `page.cursor` the page starts after that key (date, id) — an index
 * range however deep the page (issue 18 §2).
 */
export async function selectJournalEntryPage(
  tx: Tx,
  instanceId: string,
  filter: JournalEntryFilter,
  page: PageRequest & { order: 'asc' | 'desc' },
): Promise<{ ids: number[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId, filter.dateFrom ?? null, filter.dateTo ?? null, filter.accountId ?? null];
  let where = `e.instance_id = $1
        AND ($2::date IS NULL OR e.date_ledger >= $2) AND ($3::date IS NULL OR e.date_ledger <= $3)
        AND ($4::int IS NULL OR EXISTS (SELECT 1 FROM journal_line l
                                         WHERE l.instance_id = $1 AND l.entry_id = e.id AND l.account_id = $4))`;
  const matched = filter.text ? await entryTextMatch(tx, filter.text, params) : null;
  if (matched) where += ` AND ${matched}`;
  const direction = page.order === 'desc' ? 'DESC' : 'ASC';
  const { rows, counted } = await countedPage(tx, `SELECT 1 FROM journal_entry e WHERE ${where}`, params, page, (countColumn) => {
    const after = page.cursor ? ` AND ${afterKey(['e.date_ledger', 'e.id'], ['date', 'int'], page.order, decodeCursor(page.cursor, ['date', 'int']), params)}` : '';
    return tx.query<{ id: number; date_ledger: string } & CountedRow>(
      `SELECT e.id, e.date_ledger${countColumn ? `, ${countColumn}` : ''} FROM journal_entry e WHERE ${where}${after}
        ORDER BY e.date_ledger ${direction}, e.id ${direction} ${limitOffset(page)}`,
      params,
    );
  });
  const { rows: kept, nextCursor } = pageOf(rows, page, (row) => [row.date_ledger, row.id], counted);
  return { ids: kept.map((row) => row.id), ...counted, nextCursor };
}

/** An entry's number as typed: EN12, #12 or 12. */
const ENTRY_NUMBER = /^(?:EN|#)?\s*(\d{1,9})$/i;

/**
 * The SQL condition on `e` (an entry) of the journal's free text (decision 033, addendum): every
 * word of 2 or more characters of `text` found inside a word of the description, or the text is
 * the entry's number or its import key (`source_ref`, exact). Index ranges and probes only, so the
 * list and its capped count read the matching entries, not every entry (an ILIKE, under row
 * security, read them all). Null when `text` has nothing to match (fewer than 2 characters once
 * trimmed and no number, e.g. "x"): the text then filters nothing, as a word of 1 character among
 * others is ignored. A text of only 1-character words ("A-1") still finds that import key.
 */
async function entryTextMatch(tx: Tx, text: string, params: unknown[]): Promise<string | null> {
  const key = text.trim();
  const number = ENTRY_NUMBER.exec(key);
  if (Array.from(key).length < 2 && !number) return null;
  // The import key is always in the condition, unasked: its union has no statistics, which keeps
  // the planner collecting the matches and sorting them. Without it, a word of a tenth of 500,000
  // entries, all in the last years, was searched by walking the journal in date order: 301,524
  // entries read for the first page (bench:lists database, "Rechnung": 440 ms against 100–160).
  const keys: TextKey[] = [{ value: key, ids: (p) => `SELECT r.id FROM journal_entry r WHERE r.instance_id = $1 AND r.source_ref = ${p}`, always: true }];
  if (number) keys.push({ value: Number(number[1]), ids: (p) => `SELECT ${p}::int`, always: true });
  return textFilter(tx, 'e', text, { table: 'journal_entry', words: { table: 'journal_entry_word', key: 'entry_id' } }, keys, params);
}

export interface JournalEntryHead {
  id: number;
  dateLedger: string;
  /** 'manual', 'import' or the document that posted it ('invoice', 'bill', …). */
  source: string;
  sourceRef: string | null;
}

/** Id, date and source of one entry, or undefined when it is not one of the instance's entries. */
export async function selectJournalEntryHead(tx: Tx, instanceId: string, entryId: number): Promise<JournalEntryHead | undefined> {
  const [row] = await tx.query<{ id: number; date_ledger: string; source: string; source_ref: string | null }>(
    'SELECT id, date_ledger, source, source_ref FROM journal_entry WHERE instance_id = $1 AND id = $2',
    [instanceId, entryId],
  );
  return row ? { id: row.id, dateLedger: row.date_ledger, source: row.source, sourceRef: row.source_ref } : undefined;
}

/** Reserves `count` consecutive ids of `kind` for the instance in one call; returns the first. */
export async function allocateIds(
  tx: Tx,
  instanceId: string,
  kind: 'journal_entry' | 'journal_line' | 'ledger_account' | 'account_group',
  count: number,
): Promise<number> {
  if (count === 0) return 0;
  const [row] = await tx.query<{ last: number }>('SELECT next_ids($1, $2, $3) AS last', [instanceId, kind, count]);
  return row!.last - count + 1;
}

/** Journal entries to insert, column by column (the layout unnest wants). */
export interface JournalEntryColumns {
  id: number[];
  dateLedger: string[];
  description: string[];
  sourceRef: (string | null)[];
}

/** Postings to insert, column by column. */
export interface JournalLineColumns {
  id: number[];
  entryId: number[];
  dateLedger: string[];
  accountId: number[];
  direction: number[];
  /** Absolute amounts in the instance currency, decimal strings. */
  amount: string[];
  currencyId: number[];
  amountOriginal: string[];
  exchangeRate: string[];
  description: (string | null)[];
  /** VAT of each posting (all null for an uncoded one): code, role, percent, signed base and tax. */
  vatCode: (string | null)[];
  vatRole: (VatRole | null)[];
  vatPercent: (string | null)[];
  vatBase: (string | null)[];
  vatAmount: (string | null)[];
}

const ENTRY_BATCH = 5_000;
const LINE_BATCH = 10_000;

/** Inserts journal entries in batches of multi-row INSERT … SELECT FROM unnest. */
export async function insertJournalEntries(
  tx: Tx,
  instanceId: string,
  entries: JournalEntryColumns,
  meta: { source: string; createdBy: string | null },
): Promise<void> {
  for (let start = 0; start < entries.id.length; start += ENTRY_BATCH) {
    const end = start + ENTRY_BATCH;
    await tx.query(
      `INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref, created_by)
       SELECT $1, r.id, r.date_ledger, r.description, $2, r.source_ref, $3
         FROM unnest($4::int[], $5::date[], $6::text[], $7::text[]) AS r(id, date_ledger, description, source_ref)`,
      [
        instanceId,
        meta.source,
        meta.createdBy,
        entries.id.slice(start, end),
        entries.dateLedger.slice(start, end),
        entries.description.slice(start, end),
        entries.sourceRef.slice(start, end),
      ],
    );
  }
}

/** Inserts postings in batches of multi-row INSERT … SELECT FROM unnest. */
export async function insertJournalLines(tx: Tx, instanceId: string, lines: JournalLineColumns): Promise<void> {
  for (let start = 0; start < lines.id.length; start += LINE_BATCH) {
    const end = start + LINE_BATCH;
    await tx.query(
      `INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id,
                                 amount_original, exchange_rate, description, vat_code, vat_role, vat_percent, vat_base, vat_amount)
       SELECT $1, r.id, r.entry_id, r.date_ledger, r.account_id, r.direction, r.amount, r.currency_id,
              r.amount_original, r.exchange_rate, r.description, r.vat_code, r.vat_role, r.vat_percent, r.vat_base, r.vat_amount
         FROM unnest($2::int[], $3::int[], $4::date[], $5::int[], $6::smallint[], $7::numeric[], $8::smallint[],
                     $9::numeric[], $10::numeric[], $11::text[], $12::text[], $13::text[], $14::numeric[], $15::numeric[], $16::numeric[])
              AS r(id, entry_id, date_ledger, account_id, direction, amount, currency_id, amount_original, exchange_rate, description,
                   vat_code, vat_role, vat_percent, vat_base, vat_amount)`,
      [
        instanceId,
        lines.id.slice(start, end),
        lines.entryId.slice(start, end),
        lines.dateLedger.slice(start, end),
        lines.accountId.slice(start, end),
        lines.direction.slice(start, end),
        lines.amount.slice(start, end),
        lines.currencyId.slice(start, end),
        lines.amountOriginal.slice(start, end),
        lines.exchangeRate.slice(start, end),
        lines.description.slice(start, end),
        lines.vatCode.slice(start, end),
        lines.vatRole.slice(start, end),
        lines.vatPercent.slice(start, end),
        lines.vatBase.slice(start, end),
        lines.vatAmount.slice(start, end),
      ],
    );
  }
}

/** One posted line as the database stored it (exact decimals as text). */
export interface InsertedLine {
  id: number;
  amount: string;
  amountOriginal: string;
  exchangeRate: string;
}

/**
 * Allocates the ids and inserts one entry and its postings in a single statement (data-modifying
 * CTEs), for the one-entry posting path where round trips dominate (docs/performance.md (a)). The
 * statement triggers run as for separate INSERTs; the lines' foreign key is checked at the end of
 * the statement, when the entry row exists. Returns the entry id and the lines in input order.
 */
export async function insertJournalEntryWithLines(
  tx: Tx,
  instanceId: string,
  entry: { dateLedger: string; description: string; sourceRef: string | null; source: string; createdBy: string | null },
  lines: Omit<JournalLineColumns, 'id' | 'entryId' | 'dateLedger'>,
): Promise<{ entryId: number; lines: InsertedLine[] }> {
  const rows = await tx.query<{ entry_id: number; id: number; amount: string; amount_original: string; exchange_rate: string }>(
    `WITH entry_id AS MATERIALIZED (SELECT next_ids($1, 'journal_entry', 1) AS id),
          last_line AS MATERIALIZED (SELECT next_ids($1, 'journal_line', cardinality($7::int[])) AS id),
          new_entry AS (
            INSERT INTO journal_entry (instance_id, id, date_ledger, description, source, source_ref, created_by)
            SELECT $1, entry_id.id, $2, $3, $4, $5, $6 FROM entry_id
            RETURNING id, date_ledger)
     INSERT INTO journal_line (instance_id, id, entry_id, date_ledger, account_id, direction, amount, currency_id,
                               amount_original, exchange_rate, description, vat_code, vat_role, vat_percent, vat_base, vat_amount)
     SELECT $1, last_line.id - cardinality($7::int[]) + r.ord::int, new_entry.id, new_entry.date_ledger, r.account_id, r.direction,
            r.amount, r.currency_id, r.amount_original, r.exchange_rate, r.description,
            r.vat_code, r.vat_role, r.vat_percent, r.vat_base, r.vat_amount
       FROM new_entry, last_line,
            unnest($7::int[], $8::smallint[], $9::numeric[], $10::smallint[], $11::numeric[], $12::numeric[], $13::text[],
                   $14::text[], $15::text[], $16::numeric[], $17::numeric[], $18::numeric[])
              WITH ORDINALITY AS r(account_id, direction, amount, currency_id, amount_original, exchange_rate, description,
                                   vat_code, vat_role, vat_percent, vat_base, vat_amount, ord)
     RETURNING entry_id, id, amount::text AS amount, amount_original::text AS amount_original, exchange_rate::text AS exchange_rate`,
    [
      instanceId,
      entry.dateLedger,
      entry.description,
      entry.source,
      entry.sourceRef,
      entry.createdBy,
      lines.accountId,
      lines.direction,
      lines.amount,
      lines.currencyId,
      lines.amountOriginal,
      lines.exchangeRate,
      lines.description,
      lines.vatCode,
      lines.vatRole,
      lines.vatPercent,
      lines.vatBase,
      lines.vatAmount,
    ],
  );
  rows.sort((a, b) => a.id - b.id);
  return {
    entryId: rows[0]!.entry_id,
    lines: rows.map((row) => ({ id: row.id, amount: row.amount, amountOriginal: row.amount_original, exchangeRate: row.exchange_rate })),
  };
}

/** Sets date and description of an entry (its postings' dates follow through the foreign key's ON UPDATE CASCADE). */
export async function updateJournalEntryHead(
  tx: Tx,
  instanceId: string,
  entryId: number,
  values: { dateLedger: string; description: string },
): Promise<void> {
  await tx.query('UPDATE journal_entry SET date_ledger = $3, description = $4 WHERE instance_id = $1 AND id = $2', [
    instanceId,
    entryId,
    values.dateLedger,
    values.description,
  ]);
}

/** Deletes every posting of an entry in one statement (one trigger run for the month balances). */
export async function deleteJournalLinesOfEntry(tx: Tx, instanceId: string, entryId: number): Promise<void> {
  await tx.query('DELETE FROM journal_line WHERE instance_id = $1 AND entry_id = $2', [instanceId, entryId]);
}

/** Deletes the entry row; its postings, if any remain, go with it (ON DELETE CASCADE). */
export async function deleteJournalEntryRow(tx: Tx, instanceId: string, entryId: number): Promise<void> {
  await tx.query('DELETE FROM journal_entry WHERE instance_id = $1 AND id = $2', [instanceId, entryId]);
}

/** Moves every posting of `fromEntryId` to `toEntryId` (same date: the lines' foreign key keeps dates equal). */
export async function moveJournalLines(tx: Tx, instanceId: string, fromEntryId: number, toEntryId: number): Promise<void> {
  await tx.query('UPDATE journal_line SET entry_id = $3 WHERE instance_id = $1 AND entry_id = $2', [instanceId, fromEntryId, toEntryId]);
}

/** Changes the account (when given) and the description (when not undefined; null clears it) of one posting. */
export async function updateJournalLine(
  tx: Tx,
  instanceId: string,
  lineId: number,
  values: { accountId?: number | undefined; description?: string | null | undefined },
): Promise<void> {
  await tx.query(
    `UPDATE journal_line
        SET account_id = coalesce($3, account_id),
            description = CASE WHEN $4::boolean THEN $5 ELSE description END
      WHERE instance_id = $1 AND id = $2`,
    [instanceId, lineId, values.accountId ?? null, values.description !== undefined, values.description ?? null],
  );
}

export type AccountPostingRow = {
  id: number;
  entry_id: number;
  date_ledger: string;
  entry_description: string;
  amount: string;
  direction: 1 | -1;
};

/** Where a posting stands in its account's ledger: date, entry, line. */
export type PostingKey = [date: string, entryId: number, lineId: number];

const POSTING_KEY = ['l.date_ledger', 'l.entry_id', 'l.id'];
const POSTING_KEY_TYPES = ['date', 'int', 'int'];

/**
 * One page of an account's postings in ledger order (date, entry, line) and how many match,
 * counted up to COUNT_CAP. Read through the index on (account, date, entry, line): with a cursor
 * the page is an index range however long the account's history (issue 18 §2).
 */
export async function selectAccountPostings(
  tx: Tx,
  instanceId: string,
  filter: { accountId: number; dateFrom?: string | undefined; dateTo?: string | undefined; text?: string | undefined },
  page: PageRequest,
): Promise<{ rows: AccountPostingRow[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const params: unknown[] = [instanceId, filter.accountId, filter.dateFrom ?? null, filter.dateTo ?? null];
  let where = `l.instance_id = $1 AND l.account_id = $2
        AND ($3::date IS NULL OR l.date_ledger >= $3) AND ($4::date IS NULL OR l.date_ledger <= $4)`;
  const words = filter.text ? await searchWords(tx, filter.text) : [];
  // Each word inside a word of the entry's description (its words table) or in the posting's own
  // description, which has no words table: that one stays an ILIKE, but over this account's
  // postings in the range only, beside a hashed set of the word's entries (decision 033, addendum).
  // A text of no word of 2 or more characters filters nothing.
  if (words.length > 0) {
    where += wordSets(words, { table: 'journal_entry_word', key: 'entry_id' }, params)
      .map((set, i) => {
        params.push(containsPattern(words[i]!));
        return ` AND (l.entry_id IN (${set}) OR l.description ILIKE $${params.length})`;
      })
      .join('');
  }
  const from = 'journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id';
  // The count reads the account's postings alone: the join to the entries is for the page's descriptions.
  const { rows, counted } = await countedPage(tx, `SELECT 1 FROM journal_line l WHERE ${where}`, params, page, (countColumn) => {
    const after = page.cursor ? ` AND ${afterKey(POSTING_KEY, POSTING_KEY_TYPES, 'asc', decodeCursor(page.cursor, ['date', 'int', 'int']), params)}` : '';
    return tx.query<AccountPostingRow & CountedRow>(
      `SELECT l.id, l.entry_id, l.date_ledger, e.description AS entry_description, l.amount::text AS amount, l.direction${countColumn ? `, ${countColumn}` : ''}
         FROM ${from} WHERE ${where}${after}
        ORDER BY l.date_ledger, l.entry_id, l.id ${limitOffset(page)}`,
      params,
    );
  });
  const { rows: kept, nextCursor } = pageOf(rows, page, (row) => [row.date_ledger, row.entry_id, row.id], counted);
  return { rows: kept, ...counted, nextCursor };
}

/**
 * Debit minus credit of the account's postings from `first` to `last` (ledger order, both
 * included), running, by posting id: the balances of a page's rows less the balance before it.
 */
export async function selectRunningSums(tx: Tx, instanceId: string, accountId: number, first: PostingKey, last: PostingKey): Promise<Map<number, string>> {
  const params: unknown[] = [instanceId, accountId];
  const rows = await tx.query<{ id: number; running: string }>(
    `SELECT l.id, (sum(l.amount * l.direction) OVER (ORDER BY l.date_ledger, l.entry_id, l.id))::text AS running
       FROM journal_line l
      WHERE l.instance_id = $1 AND l.account_id = $2
        AND ${keyCompare(POSTING_KEY, POSTING_KEY_TYPES, '>=', first, params)}
        AND ${keyCompare(POSTING_KEY, POSTING_KEY_TYPES, '<=', last, params)}`,
    params,
  );
  return new Map(rows.map((row) => [row.id, row.running]));
}

/** Debit minus credit of the account's postings dated `date` that come before `key` (same day, earlier entry or line). */
export async function selectSameDaySumBefore(tx: Tx, instanceId: string, accountId: number, key: PostingKey): Promise<string> {
  const params: unknown[] = [instanceId, accountId, key[0]];
  const [row] = await tx.query<{ sum: string }>(
    `SELECT coalesce(sum(l.amount * l.direction), 0)::text AS sum FROM journal_line l
      WHERE l.instance_id = $1 AND l.account_id = $2 AND l.date_ledger = $3::date
        AND ${keyCompare(POSTING_KEY, POSTING_KEY_TYPES, '<', key, params)}`,
    params,
  );
  return row!.sum;
}
