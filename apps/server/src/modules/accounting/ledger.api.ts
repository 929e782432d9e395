/**
 * What other modules ask the ledger (issue 11 §3: accounting is the only reader and writer of
 * ledger_account, journal_entry, journal_line and account_period_balance). Re-exported by the
 * facade `accounting.service.ts`; other modules import from there. Each function takes the
 * caller's transaction, so a document and its posting commit or fail together (STYLE.md #7).
 */
import { AccountFunctionType, Money, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AccountingError } from './accounting.errors.js';
import { selectLockDate } from './accounting.sql.js';
import { accountBalanceAt } from './balance.service.js';
import { getJournalEntry, postingVatInput, postJournalEntry } from './journal-entry.service.js';

/**
 * Balance of one ledger account over the postings dated on or before `date` (default: all):
 * debit − credit as a decimal string with 2 decimals, in the books' currency. Whole months come
 * from account_period_balance, the rest of `date`'s month from its postings — the one way every
 * module computes a balance (the trial balance reads the same months).
 */
export const accountBalance: (tx: Tx, instanceId: string, accountId: number, date?: string) => Promise<string> = accountBalanceAt;

/**
 * The accounts documents post to (Swiss SME chart, Kontenrahmen KMU):
 * - receivable: 1100 "Forderungen aus Lieferungen und Leistungen", else the first account with
 *   function type receivable (invoices post here);
 * - payable: the first account with function type payable, else 2000 (supplier bills);
 * - expenses: 2250 (what the company owes its staff: staff expenses stay off 2000), else payable;
 * - bank: the first account with function type bank account.
 */
export type ControlAccountKind = 'receivable' | 'payable' | 'expenses' | 'bank';

/** Per kind: which accounts qualify, and which of them wins. */
const CONTROL_ACCOUNT_SQL: Record<ControlAccountKind, { where: string; order: string }> = {
  receivable: {
    where: `number = '1100' OR function_type_id = ${AccountFunctionType.receivable}`,
    order: `number = '1100' DESC, number`,
  },
  payable: {
    where: `function_type_id = ${AccountFunctionType.payable} OR number = '2000'`,
    order: `function_type_id IS NOT DISTINCT FROM ${AccountFunctionType.payable} DESC, number`,
  },
  expenses: {
    where: `number = '2250' OR function_type_id = ${AccountFunctionType.payable} OR number = '2000'`,
    order: `number = '2250' DESC, function_type_id IS NOT DISTINCT FROM ${AccountFunctionType.payable} DESC, number`,
  },
  bank: { where: `function_type_id = ${AccountFunctionType.bankAccount}`, order: 'number' },
};

const MISSING: Record<ControlAccountKind, string> = {
  receivable: 'no receivable account: add ledger account 1100 to the chart of accounts',
  payable: 'no payables account (function type payable or number 2000) in the chart',
  expenses: 'no staff liability or payables account (2250, function type payable or 2000) in the chart',
  bank: 'no bank account (function type bank account) in the chart',
};

/** The id of the instance's control account of `kind` (rules above); 409 control_account_missing when the chart has none. */
export async function controlAccount(tx: Tx, instanceId: string, kind: ControlAccountKind): Promise<number> {
  const { where, order } = CONTROL_ACCOUNT_SQL[kind];
  const [row] = await tx.query<{ id: number }>(`SELECT id FROM ledger_account WHERE instance_id = $1 AND (${where}) ORDER BY ${order} LIMIT 1`, [instanceId]);
  if (!row) throw new AccountingError('control_account_missing', MISSING[kind]);
  return row.id;
}

/** A journal entry posted by a document: its source and reference, and the entry it reverses if any. */
export interface DocumentEntry {
  id: number;
  source: string;
  sourceRef: string | null;
  /** The id of the entry this one reverses (`reverseJournalEntry`), else null. */
  reverses: number | null;
}

/**
 * The entries documents posted: source one of `sources` (e.g. 'invoice', or 'bill' and 'payment')
 * with source_ref one of `refs` (the documents' uuids), plus the reversals of those entries (a
 * reversal names the reversed entry's id as its source_ref). Ordered by id.
 */
export async function entriesOfDocuments(
  tx: Tx,
  instanceId: string,
  sources: readonly string[],
  refs: readonly string[],
): Promise<DocumentEntry[]> {
  if (sources.length === 0 || refs.length === 0) return [];
  const rows = await tx.query<{ id: number; source: string; source_ref: string | null; reverses: number | null }>(
    `WITH own AS (SELECT id, source, source_ref FROM journal_entry WHERE instance_id = $1 AND source = ANY ($2::text[]) AND source_ref = ANY ($3::text[]))
     SELECT id, source, source_ref, NULL::integer AS reverses FROM own
     UNION
     SELECT e.id, e.source, e.source_ref, own.id FROM journal_entry e JOIN own ON e.source_ref = own.id::text
      WHERE e.instance_id = $1 AND e.source = ANY ($2::text[])
     ORDER BY id`,
    [instanceId, [...sources], [...refs]],
  );
  return rows.map((row) => ({ id: row.id, source: row.source, sourceRef: row.source_ref, reverses: row.reverses }));
}

/**
 * Posts the counter-entry of `entryId` (every line in the other direction) at `date`, with
 * `source` and the reversed entry's id as source_ref, so `entriesOfDocuments` finds it with its
 * document. Returns the new entry's id. History is append-only: a posted entry is corrected by
 * its reversal (STYLE.md); lock date and balance are checked as for any posting. The postings keep
 * their VAT code and rate, so the reversal subtracts from the same figures of the return.
 */
export async function reverseJournalEntry(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  entryId: number,
  reversal: { date: string; description: string; source: string },
): Promise<number> {
  const entry = await getJournalEntry(tx, instanceId, entryId);
  return postJournalEntry(tx, instanceId, userId, {
    dateLedger: reversal.date,
    description: reversal.description.slice(0, 500),
    source: reversal.source,
    sourceRef: entry.id.toString(),
    lines: entry.entryAccounts.map((line) => ({
      accountId: line.account.id,
      amount: line.amount,
      direction: line.direction === 1 ? -1 : 1,
      description: line.description,
      vat: postingVatInput(line),
    })),
  });
}

/** Whether the instance's books have any journal entry (the books' currency is fixed from then on). */
export async function hasJournalEntries(tx: Tx, instanceId: string): Promise<boolean> {
  const [row] = await tx.query('SELECT 1 FROM journal_entry WHERE instance_id = $1 LIMIT 1', [instanceId]);
  return row !== undefined;
}

/**
 * `date` when it lies after the lock date, else the first open day (the day after the lock date):
 * where a correction of something booked at `date` can still be posted (spec §2.2 "Lock").
 */
export async function firstOpenDate(tx: Tx, instanceId: string, date: string): Promise<string> {
  const lockDate = await selectLockDate(tx, instanceId);
  if (lockDate === null || date > lockDate) return date;
  return new Date(Date.parse(`${lockDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The ids of the entries with `source` whose source_ref names one of `entryIds`: the reversals of
 * those entries (`reverseJournalEntry`), e.g. a bill's booking reversed when it went back to
 * pending, whichever document posted the reversed entry. Ordered by id.
 */
export async function reversalsOfEntries(tx: Tx, instanceId: string, source: string, entryIds: readonly number[]): Promise<number[]> {
  if (entryIds.length === 0) return [];
  const rows = await tx.query<{ id: number }>('SELECT id FROM journal_entry WHERE instance_id = $1 AND source = $2 AND source_ref = ANY ($3::text[]) ORDER BY id', [
    instanceId,
    source,
    entryIds.map(String),
  ]);
  return rows.map((row) => row.id);
}

/** One journal entry's turnover on accounts of one type, for the analyses of documents by party. */
export interface DocumentTurnover {
  entryId: number;
  /**
   * The document's reference (the source_ref of the entry, e.g. the invoice's or bill's uuid); for a
   * reversal (`reverseJournalEntry`) of an entry of the same source, that entry's source_ref. Null
   * for a reversal of an entry of another source (a bill's payment reversed under source 'bill').
   */
  documentRef: string | null;
  /** The id of the reversed entry when this entry is a reversal, else null. */
  reverses: number | null;
  dateLedger: string;
  /** Sum of debit − credit of the entry's postings on the accounts of the type, instance currency, 2 decimals; never 0. */
  balance: string;
}

/**
 * The entries with `source` dated dateFrom…dateTo (inclusive) that post to ledger accounts of
 * `accountTypeId` (AccountType: revenue 4, expenses 3, …), each with its turnover on those accounts:
 * what invoices posted to revenue, what bills posted to expenses, by ledger date. Ordered by id.
 * Reads the period's entries by journal_entry_date_idx.
 */
export async function documentTurnovers(
  tx: Tx,
  instanceId: string,
  query: { source: string; accountTypeId: number; dateFrom: string; dateTo: string },
): Promise<DocumentTurnover[]> {
  const rows = await tx.query<{ id: number; document_ref: string | null; reverses: number | null; date_ledger: string; balance: string }>(
    `SELECT e.id, e.date_ledger::text AS date_ledger, r.id AS reverses,
            CASE WHEN r.id IS NOT NULL THEN r.source_ref WHEN e.source_ref ~ '^[0-9]+$' THEN NULL ELSE e.source_ref END AS document_ref,
            sum(l.amount * l.direction)::text AS balance
       FROM journal_entry e
       JOIN journal_line l ON l.instance_id = e.instance_id AND l.entry_id = e.id
       JOIN ledger_account a ON a.instance_id = l.instance_id AND a.id = l.account_id AND a.type_id = $5
       LEFT JOIN journal_entry r ON r.instance_id = e.instance_id AND r.source = e.source
            AND r.id = CASE WHEN e.source_ref ~ '^[0-9]{1,9}$' THEN e.source_ref::int END
      WHERE e.instance_id = $1 AND e.source = $2 AND e.date_ledger BETWEEN $3::date AND $4::date
      GROUP BY e.id, e.date_ledger, e.source_ref, r.id, r.source_ref
     HAVING sum(l.amount * l.direction) <> 0
      ORDER BY e.id`,
    [instanceId, query.source, query.dateFrom, query.dateTo, query.accountTypeId],
  );
  return rows.map((row) => ({
    entryId: row.id,
    documentRef: row.document_ref,
    reverses: row.reverses,
    dateLedger: row.date_ledger,
    balance: toFixedAmount(new Money(row.balance)),
  }));
}

/**
 * The ledger date (YYYY-MM-DD) of each of the entries `entryIds` that exists, by entry id: when a
 * document's posting took effect, for the modules that keep the entry ids but no dates of their
 * own (an invoice's sent entry, a bill's booking and payment; the accounting checks' open items
 * at a date). One query by primary key.
 */
export async function entryDates(tx: Tx, instanceId: string, entryIds: readonly number[]): Promise<Map<number, string>> {
  if (entryIds.length === 0) return new Map();
  const rows = await tx.query<{ id: number; date_ledger: string }>(
    'SELECT id, date_ledger::text AS date_ledger FROM journal_entry WHERE instance_id = $1 AND id = ANY ($2::int[])',
    [instanceId, [...new Set(entryIds)]],
  );
  return new Map(rows.map((row) => [row.id, row.date_ledger]));
}

/**
 * For each of `entryIds` that has a reversal with `source` (`reverseJournalEntry`: source_ref = the
 * reversed entry's id), the ledger date of its earliest reversal, by reversed entry id. One query
 * (index journal_entry_document_idx).
 */
export async function reversalDates(tx: Tx, instanceId: string, source: string, entryIds: readonly number[]): Promise<Map<number, string>> {
  if (entryIds.length === 0) return new Map();
  const rows = await tx.query<{ reversed: string; date_ledger: string }>(
    `SELECT source_ref AS reversed, min(date_ledger)::text AS date_ledger FROM journal_entry
      WHERE instance_id = $1 AND source = $2 AND source_ref = ANY ($3::text[]) GROUP BY source_ref`,
    [instanceId, source, [...new Set(entryIds)].map(String)],
  );
  return new Map(rows.map((row) => [Number(row.reversed), row.date_ledger]));
}

/** A posting (journal line) on one ledger account, as bank reconciliation compares it to bank lines. */
export interface AccountPosting {
  /** journal_line id: what a reconciliation claims. */
  lineId: number;
  entryId: number;
  dateLedger: string;
  /** +1 debit (money in on a bank account), -1 credit (money out). */
  direction: 1 | -1;
  /** Amount in the books' currency, 2 decimals. */
  amount: string;
  /** The posting's own currency id (Currency) and amount in it: a bank account in another currency compares these. */
  currencyId: number;
  originalAmount: string;
  source: string;
  sourceRef: string | null;
  description: string;
}

/**
 * The postings on ledger account `accountId` dated dateFrom…dateTo (inclusive), or those of the
 * given entries (`entryIds`, any date), ordered by date and id: what banking reconciles bank lines
 * against (issue 14 §1). Reads by journal_line_account_idx; one query.
 */
export async function accountPostings(
  tx: Tx,
  instanceId: string,
  accountId: number,
  query: { dateFrom: string; dateTo: string } | { entryIds: readonly number[] } | { lineIds: readonly number[] },
): Promise<AccountPosting[]> {
  const [where, params] =
    'entryIds' in query
      ? ['l.entry_id = ANY ($3::integer[])', [[...query.entryIds]]]
      : 'lineIds' in query
        ? ['l.id = ANY ($3::integer[])', [[...query.lineIds]]]
        : ['l.date_ledger BETWEEN $3::date AND $4::date', [query.dateFrom, query.dateTo]];
  if (('entryIds' in query && !query.entryIds.length) || ('lineIds' in query && !query.lineIds.length)) return [];
  const rows = await tx.query<{ id: number; entry_id: number; date_ledger: string; direction: number; amount: string; currency_id: number; amount_original: string; source: string; source_ref: string | null; description: string }>(
    `SELECT l.id, l.entry_id, l.date_ledger::text AS date_ledger, l.direction, l.amount::text AS amount, l.currency_id, l.amount_original::text AS amount_original, e.source, e.source_ref, e.description
       FROM journal_line l JOIN journal_entry e ON e.instance_id = l.instance_id AND e.id = l.entry_id
      WHERE l.instance_id = $1 AND l.account_id = $2 AND ${where}
      ORDER BY l.date_ledger, l.id`,
    [instanceId, accountId, ...params],
  );
  return rows.map((row) => ({
    lineId: row.id,
    entryId: row.entry_id,
    dateLedger: row.date_ledger,
    direction: row.direction === 1 ? 1 : -1,
    amount: toFixedAmount(row.amount),
    currencyId: row.currency_id,
    originalAmount: toFixedAmount(row.amount_original),
    source: row.source,
    sourceRef: row.source_ref,
    description: row.description,
  }));
}
