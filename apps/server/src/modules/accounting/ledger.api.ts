/**
 * What other modules ask the ledger (issue 11 §3: accounting is the only reader and writer of
 * ledger_account, journal_entry, journal_line and account_period_balance). Re-exported by the
 * facade `accounting.service.ts`; other modules import from there. Each function takes the
 * caller's transaction, so a document and its posting commit or fail together (STYLE.md #7).
 */
import { AccountFunctionType } from '@bilan/domain';
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
