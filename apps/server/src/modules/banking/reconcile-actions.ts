/**
 * What a person does on the reconciliation page (issue 14 §1, §2): match bank lines to postings
 * already in the books, unmatch (reversing what the match booked), ignore with a reason and
 * un-ignore, delete a statement import none of whose lines is reconciled; and the summary at a date.
 * Each change takes the account's reconciliation lock (matching.service.ts) and is audited by the
 * route in the same transaction.
 */
import { toFixedAmount, toMoney } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone } from '../../http/errors.js';
import { accountBalance, accountPostings, firstOpenDate, reverseJournalEntry, type AccountPosting } from '../accounting/accounting.service.js';
import { reopenBillPayment } from '../payables/payables.service.js';
import type { InvoicePort } from './bank-import.service.js';
import { bankingError } from './banking.errors.js';
import { claimedLines, lockReconciliation, recordClaims } from './matching.service.js';

interface LineRow {
  id: number;
  account_id: number;
  booking_date: string;
  direction: number;
  amount: string;
  match_id: number | null;
  ignored_reason: string | null;
  matched_invoice_uuid: string | null;
  matched_payable_id: number | null;
  bank_file_id: number;
  [key: string]: unknown;
}

const LINE = `id, account_id, booking_date::text AS booking_date, direction, amount::text AS amount, match_id, ignored_reason, matched_invoice_uuid, matched_payable_id, bank_file_id`;

/** Bank lines `ids`, locked after their accounts' reconciliation locks; 404 naming the first unknown one. */
async function lockLines(tx: Tx, instanceId: string, ids: readonly number[], field: string): Promise<LineRow[]> {
  const accounts = await tx.query<{ account_id: number }>('SELECT DISTINCT account_id FROM bank_transaction WHERE instance_id = $1 AND id = ANY ($2::integer[]) ORDER BY account_id', [
    instanceId,
    [...ids],
  ]);
  for (const { account_id } of accounts) await lockReconciliation(tx, instanceId, account_id);
  const rows = await tx.query<LineRow>(`SELECT ${LINE} FROM bank_transaction WHERE instance_id = $1 AND id = ANY ($2::integer[]) ORDER BY id FOR UPDATE`, [instanceId, [...ids]]);
  const missing = ids.find((id) => !rows.some((row) => row.id === id));
  if (missing !== undefined) throw bankingError('bank_transaction_not_found', `Bank transaction ${missing} not found`, { [field]: 'not found' });
  return rows;
}

const signed = (direction: number, amount: string) => toMoney(amount).times(direction);

/**
 * Reconciles open bank lines `lineIds` (one account) with postings `postingIds` (journal line ids on
 * that account, not reconciled yet) whose amounts, debit positive, add up to the lines' (money in
 * positive): one-to-one, one-to-many and many-to-one. Books nothing. 400 naming the field when the
 * postings are not on the account or the sums differ; 404 unknown line; 409 a line already
 * reconciled or ignored, or a posting already reconciled. Answers the account id.
 */
export async function matchLinesToPostings(tx: Tx, instanceId: string, lineIds: readonly number[], postingIds: readonly number[]): Promise<number> {
  const lines = await lockLines(tx, instanceId, lineIds, 'bankTransactions');
  const accountId = lines[0]!.account_id;
  if (lines.some((line) => line.account_id !== accountId)) {
    throw bankingError('match_target', 'the bank transactions are on different bank accounts', { bankTransactions: 'different bank accounts' });
  }
  for (const line of lines) {
    if (line.match_id !== null || line.ignored_reason !== null) {
      throw alreadyDone(`bank transaction ${line.id} is already ${line.match_id !== null ? 'reconciled' : 'ignored'}`, { bankTransactions: 'already reconciled or ignored' });
    }
  }
  const postings = await accountPostings(tx, instanceId, accountId, { lineIds: postingIds });
  const foreign = postingIds.find((id) => !postings.some((p) => p.lineId === id));
  if (foreign !== undefined) throw bankingError('match_target', `posting ${foreign} is not on this bank account`, { postings: `posting ${foreign} is not on this bank account` });
  const taken = await claimedLines(tx, instanceId, postingIds);
  if (taken.size) throw alreadyDone(`posting ${[...taken][0]} is already reconciled`, { postings: 'already reconciled' });
  const lineSum = lines.reduce((sum, line) => sum.plus(signed(line.direction, line.amount)), toMoney(0));
  const postingSum = postings.reduce((sum, p) => sum.plus(signed(p.direction, p.amount)), toMoney(0));
  if (!lineSum.eq(postingSum)) {
    throw bankingError('amount_mismatch', `the bank transactions make ${toFixedAmount(lineSum)}, the postings ${toFixedAmount(postingSum)}`, {
      postings: `the postings make ${toFixedAmount(postingSum)}, not ${toFixedAmount(lineSum)}`,
    });
  }
  await recordClaims(tx, instanceId, accountId, [{ lineIds: lines.map((l) => l.id), postings: postings.map((p) => ({ lineId: p.lineId, entryId: p.entryId, booked: false })) }]);
  return accountId;
}

/**
 * Unmatches bank line `lineId` and every line reconciled together with it: postings already in the
 * books are released; what the match booked is reversed (storno) at its date, or the first open day
 * after a lock — a document's payment by reopening the document (bill approved again, invoice sent
 * again), charges or a counter-account booking by the reversal of its entry. 409 when the line is
 * not reconciled. Answers the account id and the reversal entries.
 */
export async function unmatchLine(tx: Tx, instanceId: string, userId: string | null, lineId: number, invoicePort: InvoicePort): Promise<{ accountId: number; reversals: number[] }> {
  const [line] = await lockLines(tx, instanceId, [lineId], 'bankTransaction.id');
  if (line!.match_id === null) throw alreadyDone(`bank transaction ${lineId} is not reconciled`, { 'bankTransaction.id': 'not reconciled' });
  const group = await tx.query<LineRow>(`SELECT ${LINE} FROM bank_transaction WHERE instance_id = $1 AND match_id = $2 ORDER BY id FOR UPDATE`, [instanceId, line!.match_id]);
  const booked = await tx.query<{ entry_id: number }>('SELECT DISTINCT entry_id FROM bank_match_posting WHERE instance_id = $1 AND match_id = $2 AND booked ORDER BY entry_id', [
    instanceId,
    line!.match_id,
  ]);
  // A camt.054 line claims no posting; what it booked is its entry_id.
  const entries = new Set(booked.map((row) => row.entry_id));
  const [legacy] = await tx.query<{ entry_id: number | null; statement: boolean }>('SELECT entry_id, statement FROM bank_transaction WHERE instance_id = $1 AND id = $2', [instanceId, lineId]);
  if (!legacy!.statement && legacy!.entry_id !== null) entries.add(legacy!.entry_id);
  const reversals: number[] = [];
  const why = `bank line ${lineId} unmatched`;
  for (const entryId of entries) {
    const owner = group.find((row) => row.matched_payable_id !== null || row.matched_invoice_uuid !== null);
    let reversal: number | null = null;
    if (owner?.matched_payable_id != null) reversal = await reopenBillPayment(tx, instanceId, userId, owner.matched_payable_id, owner.booking_date, why);
    else if (owner?.matched_invoice_uuid != null) reversal = await invoicePort.reopen(tx, instanceId, userId, owner.matched_invoice_uuid, owner.booking_date, why);
    if (reversal === null) {
      reversal = await reverseJournalEntry(tx, instanceId, userId, entryId, { date: await firstOpenDate(tx, instanceId, line!.booking_date), description: `${why}: reversal of entry ${entryId}`, source: 'bank' });
    }
    reversals.push(reversal);
  }
  await tx.query('DELETE FROM bank_match_posting WHERE instance_id = $1 AND match_id = $2', [instanceId, line!.match_id]);
  await tx.query(
    'UPDATE bank_transaction SET match_id = NULL, entry_id = NULL, matched_invoice_uuid = NULL, matched_payable_id = NULL WHERE instance_id = $1 AND match_id = $2',
    [instanceId, line!.match_id],
  );
  return { accountId: line!.account_id, reversals };
}

/** Ignores open bank line `lineId` with `reason` (1–500 characters); 409 when reconciled or ignored already. Answers the account id. */
export async function ignoreLine(tx: Tx, instanceId: string, lineId: number, reason: string): Promise<number> {
  const [line] = await lockLines(tx, instanceId, [lineId], 'bankTransaction.id');
  if (line!.match_id !== null || line!.ignored_reason !== null) {
    throw alreadyDone(`bank transaction ${lineId} is already ${line!.match_id !== null ? 'reconciled' : 'ignored'}`, { 'bankTransaction.id': 'already reconciled or ignored' });
  }
  await tx.query('UPDATE bank_transaction SET ignored_reason = $3 WHERE instance_id = $1 AND id = $2', [instanceId, lineId, reason.trim()]);
  return line!.account_id;
}

/** Takes an ignored bank line back to open; 409 when it is not ignored. Answers the account id and the reason it had. */
export async function unignoreLine(tx: Tx, instanceId: string, lineId: number): Promise<{ accountId: number; reason: string }> {
  const [line] = await lockLines(tx, instanceId, [lineId], 'bankTransaction.id');
  if (line!.ignored_reason === null) throw alreadyDone(`bank transaction ${lineId} is not ignored`, { 'bankTransaction.id': 'not ignored' });
  await tx.query('UPDATE bank_transaction SET ignored_reason = NULL WHERE instance_id = $1 AND id = $2', [instanceId, lineId]);
  return { accountId: line!.account_id, reason: line!.ignored_reason };
}

/**
 * Deletes imported bank file `fileId` and its lines, while none of them is reconciled (issue 14 §2):
 * 404 unknown; 409 naming the reconciled lines otherwise. Answers what was deleted.
 */
export async function deleteBankFile(tx: Tx, instanceId: string, fileId: number): Promise<{ id: number; kind: string; messageId: string; lines: number }> {
  const [file] = await tx.query<{ id: number; kind: string; message_id: string; account_id: number | null }>(
    'SELECT id, kind, message_id, account_id FROM bank_file WHERE instance_id = $1 AND id = $2',
    [instanceId, fileId],
  );
  if (!file) throw bankingError('bank_file_not_found', `Bank file ${fileId} not found`, { id: 'not found' });
  const accounts = await tx.query<{ account_id: number }>('SELECT DISTINCT account_id FROM bank_transaction WHERE instance_id = $1 AND bank_file_id = $2 ORDER BY account_id', [instanceId, fileId]);
  for (const { account_id } of accounts) await lockReconciliation(tx, instanceId, account_id);
  const reconciled = await tx.query<{ id: number }>(
    'SELECT id FROM bank_transaction WHERE instance_id = $1 AND bank_file_id = $2 AND match_id IS NOT NULL ORDER BY id FOR UPDATE',
    [instanceId, fileId],
  );
  if (reconciled.length) {
    const ids = reconciled.map((r) => r.id);
    throw bankingError('bank_file_reconciled', `${ids.length} line(s) of this file are reconciled (${ids.slice(0, 10).join(', ')}): unmatch them first`, { id: 'lines reconciled' });
  }
  const lines = await tx.query<{ id: number }>('DELETE FROM bank_transaction WHERE instance_id = $1 AND bank_file_id = $2 RETURNING id', [instanceId, fileId]);
  await tx.query('DELETE FROM bank_file WHERE instance_id = $1 AND id = $2', [instanceId, fileId]);
  return { id: file.id, kind: file.kind, messageId: file.message_id, lines: lines.length };
}

/** The reconciliation of one bank account at a date (issue 14 §1). */
export interface ReconciliationSummary {
  date: string;
  /** The statement the summary compares with: the last camt.053 closing on or before `date`. */
  statement: { fileId: number; messageId: string; iban: string | null; openingBalance: string | null; closingBalance: string; closingDate: string | null } | null;
  statementBalance: string | null;
  ledgerBalance: string;
  /** Signed sums (money in positive) of the statement lines booked up to `date`: reconciled or ignored, and still open. */
  reconciled: string;
  unreconciled: string;
  ignored: string;
  /** statementBalance − ledgerBalance: 0.00 when all is done. */
  difference: string | null;
  /** This statement's opening balance − the previous statement's closing balance (null without either): 0.00 when no statement is missing. */
  gap: string | null;
}

export async function reconciliationSummary(tx: Tx, instanceId: string, accountId: number, date: string): Promise<ReconciliationSummary> {
  const files = await tx.query<{ id: number; message_id: string; iban: string | null; opening_balance: string | null; closing_balance: string; closing_date: string | null }>(
    `SELECT id, message_id, iban, opening_balance::text AS opening_balance, closing_balance::text AS closing_balance, closing_date::text AS closing_date
       FROM bank_file WHERE instance_id = $1 AND account_id = $2 AND closing_balance IS NOT NULL AND (closing_date IS NULL OR closing_date <= $3)
      ORDER BY closing_date DESC NULLS LAST, id DESC LIMIT 2`,
    [instanceId, accountId, date],
  );
  const [last, previous] = files;
  const ledgerBalance = await accountBalance(tx, instanceId, accountId, date);
  const [sums] = await tx.query<{ reconciled: string; unreconciled: string; ignored: string }>(
    `SELECT coalesce(sum(direction * amount) FILTER (WHERE match_id IS NOT NULL), 0)::text AS reconciled,
            coalesce(sum(direction * amount) FILTER (WHERE match_id IS NULL AND ignored_reason IS NULL), 0)::text AS unreconciled,
            coalesce(sum(direction * amount) FILTER (WHERE ignored_reason IS NOT NULL), 0)::text AS ignored
       FROM bank_transaction WHERE instance_id = $1 AND account_id = $2 AND statement AND booking_date <= $3`,
    [instanceId, accountId, date],
  );
  return {
    date,
    statement: last
      ? { fileId: last.id, messageId: last.message_id, iban: last.iban, openingBalance: last.opening_balance && toFixedAmount(last.opening_balance), closingBalance: toFixedAmount(last.closing_balance), closingDate: last.closing_date }
      : null,
    statementBalance: last ? toFixedAmount(last.closing_balance) : null,
    ledgerBalance,
    reconciled: toFixedAmount(sums!.reconciled),
    unreconciled: toFixedAmount(sums!.unreconciled),
    ignored: toFixedAmount(sums!.ignored),
    difference: last ? toFixedAmount(toMoney(last.closing_balance).minus(ledgerBalance)) : null,
    gap: last?.opening_balance != null && previous ? toFixedAmount(toMoney(last.opening_balance).minus(previous.closing_balance)) : null,
  };
}

/** Postings on the account not reconciled yet, dated dateFrom…dateTo: what a line can be matched to by hand. */
export async function openPostingsOf(tx: Tx, instanceId: string, accountId: number, dateFrom: string, dateTo: string): Promise<AccountPosting[]> {
  const all = await accountPostings(tx, instanceId, accountId, { dateFrom, dateTo });
  const claimed = await claimedLines(tx, instanceId, all.map((p) => p.lineId));
  return all.filter((p) => !claimed.has(p.lineId)).slice(0, 500);
}
