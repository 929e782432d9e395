/**
 * Reconciliation of a bank ledger account with the bank (issue #5 §4 "Reconciliation"): the last
 * statement's closing balance (camt.053 CLBD) against the ledger balance at that date, and the
 * imported bank transactions not booked yet, which can be booked against a chosen account.
 */
import { currencyCodeById, toFixedAmount, toMoney } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { postJournalEntry } from '../accounting/journal-entry.service.js';

export type ReconcileAnswer = {
  account: { id: number; number: string; name: string };
  statement: { balance: string; date: string | null } | null;
  /** Ledger balance (debit − credit) at the statement date, or overall without a statement. */
  ledgerBalance: string;
  /** statement balance − ledger balance; null without a statement. */
  difference: string | null;
  unmatched: {
    id: number;
    bookingDate: string;
    direction: number;
    amount: string;
    currency: string;
    reference: string | null;
    endToEndId: string | null;
    counterparty: string | null;
    description: string | null;
  }[];
};

export async function reconciliation(tx: Tx, instanceId: string, accountId: number): Promise<ReconcileAnswer> {
  const [account] = await tx.query<{ id: number; number: string; name: string }>('SELECT id, number, name FROM ledger_account WHERE instance_id = $1 AND id = $2', [
    instanceId,
    accountId,
  ]);
  if (!account) throw notFound(`Ledger account ${accountId}`);
  const [statement] = await tx.query<{ closing_balance: string; closing_date: string | null }>(
    `SELECT closing_balance, closing_date FROM bank_file WHERE instance_id = $1 AND account_id = $2 AND closing_balance IS NOT NULL
      ORDER BY closing_date DESC NULLS LAST, id DESC LIMIT 1`,
    [instanceId, accountId],
  );
  const [ledger] = await tx.query<{ balance: string | null }>(
    `SELECT sum(amount * direction)::text AS balance FROM journal_line WHERE instance_id = $1 AND account_id = $2 AND ($3::date IS NULL OR date_ledger <= $3)`,
    [instanceId, accountId, statement?.closing_date ?? null],
  );
  const ledgerBalance = toFixedAmount(ledger?.balance ?? '0');
  const unmatched = await tx.query<{
    id: number;
    booking_date: string;
    direction: number;
    amount: string;
    currency: string;
    reference: string | null;
    end_to_end_id: string | null;
    counterparty: string | null;
    description: string | null;
  }>(
    `SELECT id, booking_date, direction, amount, currency, reference, end_to_end_id, counterparty, description FROM bank_transaction
      WHERE instance_id = $1 AND account_id = $2 AND entry_id IS NULL AND matched_payable_id IS NULL ORDER BY booking_date, id`,
    [instanceId, accountId],
  );
  return {
    account,
    statement: statement ? { balance: toFixedAmount(statement.closing_balance), date: statement.closing_date } : null,
    ledgerBalance,
    difference: statement ? toFixedAmount(toMoney(statement.closing_balance).minus(ledgerBalance)) : null,
    unmatched: unmatched.map((row) => ({
      id: row.id,
      bookingDate: row.booking_date,
      direction: row.direction,
      amount: toFixedAmount(row.amount),
      currency: row.currency,
      reference: row.reference,
      endToEndId: row.end_to_end_id,
      counterparty: row.counterparty,
      description: row.description,
    })),
  };
}

/**
 * Books an unmatched bank transaction against `counterAccountId` at its booking date: money in
 * debits the bank account, money out credits it. 409 when already booked or matched; the
 * transaction must be in the instance currency (the ledger holds base amounts).
 */
export async function bookBankTransaction(tx: Tx, instanceId: string, userId: string | null, bankTransactionId: number, counterAccountId: number): Promise<number> {
  const [row] = await tx.query<{ account_id: number; booking_date: string; direction: number; amount: string; currency: string; entry_id: number | null; matched_payable_id: number | null; description: string | null; counterparty: string | null }>(
    `SELECT account_id, booking_date, direction, amount, currency, entry_id, matched_payable_id, description, counterparty
       FROM bank_transaction WHERE instance_id = $1 AND id = $2 FOR UPDATE`,
    [instanceId, bankTransactionId],
  );
  if (!row) throw notFound(`Bank transaction ${bankTransactionId}`);
  if (row.entry_id !== null || row.matched_payable_id !== null) throw conflict('the bank transaction is already booked or matched');
  const [instance] = await tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]);
  if (currencyCodeById(instance?.currency_id ?? 1) !== row.currency) {
    throw badRequest(`the bank transaction is in ${row.currency}; book it by hand with its exchange rate`, { bankTransaction: 'foreign currency' });
  }
  const direction = row.direction === 1 ? 1 : -1;
  const entryId = await postJournalEntry(tx, instanceId, userId, {
    dateLedger: row.booking_date,
    description: `Bank: ${row.counterparty ?? row.description ?? 'transaction'} `.trim().slice(0, 500),
    source: 'bank',
    sourceRef: String(bankTransactionId),
    lines: [
      { accountId: row.account_id, amount: row.amount, direction },
      { accountId: counterAccountId, amount: row.amount, direction: direction === 1 ? -1 : 1 },
    ],
  });
  await tx.query('UPDATE bank_transaction SET entry_id = $3 WHERE instance_id = $1 AND id = $2', [instanceId, bankTransactionId, entryId]);
  return entryId;
}
