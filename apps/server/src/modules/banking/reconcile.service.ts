/**
 * Reconciliation of a bank ledger account with the bank (issue #5 §4 "Reconciliation"): the last
 * statement's closing balance (camt.053 CLBD) against the ledger balance at that date, and the
 * imported bank transactions not booked yet, each with why the automatic match left it and the
 * open invoices or bills of the same amount it could pay. Such a transaction is then matched by hand
 * to one of them (booked exactly as an automatic match books) or booked against a chosen account.
 */
import { fxMatchDistance, isImplausibleFxDifference, toBaseAmount, toFixedAmount, toMoney, type MessageLanguage, type Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone } from '../../http/errors.js';
import { translateServerMessage } from '../../http/message-catalog.js';
import { serverText } from '../../http/server-texts.js';
import { accountBalance, booksCurrency, listLedgerAccounts, postJournalEntry } from '../accounting/accounting.service.js';
import { getPayable, openBillsToMatch, settleBill } from '../payables/payables.service.js';
import type { BankCredit, InvoicePort } from './bank-import.service.js';
import { bankingError } from './banking.errors.js';
import { lockReconciliation, recordClaims } from './matching.service.js';

/** Takes the reconciliation lock of the account of bank line `id` (matching.service.ts); 404 when unknown. */
async function lockAccountOfLine(tx: Tx, instanceId: string, id: number): Promise<number> {
  const [row] = await tx.query<{ account_id: number }>('SELECT account_id FROM bank_transaction WHERE instance_id = $1 AND id = $2', [instanceId, id]);
  if (!row) throw bankingError('bank_transaction_not_found', `Bank transaction ${id} not found`);
  await lockReconciliation(tx, instanceId, row.account_id);
  return row.account_id;
}

/** An open document a bank transaction could be matched to by hand. */
export interface Suggestion {
  kind: 'invoice' | 'bill';
  /** Invoice uuid or bill uuid: what the match call takes. */
  uuid: string;
  id: number;
  /** 'BILAN000012 Simon Muster AG' or 'Bill 7 Muster Lieferant AG'. */
  label: string;
  date: string;
  amount: string;
  currency: string;
}

export interface UnmatchedTransaction {
  id: number;
  bookingDate: string;
  direction: number;
  amount: string;
  currency: string;
  reference: string | null;
  endToEndId: string | null;
  counterparty: string | null;
  counterpartyIban: string | null;
  description: string | null;
  /** Why the automatic match did not book it (e.g. the period is locked), else null. */
  reason: string | null;
  /**
   * Open invoices (money in) or bills (money out) of the same amount and currency; for a transaction
   * in the books' currency also documents in another currency whose booked amount is within 5 %
   * (the bank converted them; matching books the exchange difference), closest first.
   */
  suggestions: Suggestion[];
}

export type ReconcileAnswer = {
  account: { id: number; number: string; name: string };
  statement: { balance: string; date: string | null } | null;
  /** Ledger balance (debit − credit) at the statement date, or overall without a statement. */
  ledgerBalance: string;
  /** statement balance − ledger balance; null without a statement. */
  difference: string | null;
  unmatched: UnmatchedTransaction[];
};

interface BankTransactionRow {
  id: number;
  account_id: number;
  booking_date: string;
  direction: number;
  amount: string;
  currency: string;
  reference: string | null;
  end_to_end_id: string | null;
  counterparty: string | null;
  counterparty_iban: string | null;
  description: string | null;
  dedup_key: string;
  entry_id: number | null;
  matched_payable_id: number | null;
  matched_invoice_uuid: string | null;
  unmatched_reason: string | null;
  match_id: number | null;
  ignored_reason: string | null;
  statement: boolean;
  [key: string]: unknown;
}

const BANK_TRANSACTION_COLUMNS = `id, account_id, booking_date::text AS booking_date, direction, amount, currency, reference, end_to_end_id, counterparty, counterparty_iban,
  description, dedup_key, entry_id, matched_payable_id, matched_invoice_uuid, unmatched_reason, match_id, ignored_reason, statement`;

/**
 * The reconciliation of bank ledger account `accountId` (see ReconcileAnswer); 404 when the account
 * is not one of the instance's. The unmatched lines' reasons are stored in English (the contract)
 * and answered in `language`, as are the suggestions' labels.
 */
export async function reconciliation(tx: Tx, instanceId: string, accountId: number, invoicePort: InvoicePort, language: MessageLanguage = 'en'): Promise<ReconcileAnswer> {
  const [ledgerAccount] = await listLedgerAccounts(tx, instanceId, { ids: [accountId] });
  if (!ledgerAccount) throw bankingError('ledger_account_not_found', `Ledger account ${accountId} not found`);
  const account = { id: ledgerAccount.id, number: ledgerAccount.number, name: ledgerAccount.name };
  const [statement] = await tx.query<{ closing_balance: string; closing_date: string | null }>(
    `SELECT closing_balance, closing_date FROM bank_file WHERE instance_id = $1 AND account_id = $2 AND closing_balance IS NOT NULL
      ORDER BY closing_date DESC NULLS LAST, id DESC LIMIT 1`,
    [instanceId, accountId],
  );
  const ledgerBalance = await accountBalance(tx, instanceId, accountId, statement?.closing_date ?? undefined);
  const unmatched = await tx.query<BankTransactionRow>(
    `SELECT ${BANK_TRANSACTION_COLUMNS} FROM bank_transaction
      WHERE instance_id = $1 AND account_id = $2 AND match_id IS NULL AND ignored_reason IS NULL
      ORDER BY booking_date, id`,
    [instanceId, accountId],
  );
  const hasIn = unmatched.some((row) => row.direction === 1);
  const hasOut = unmatched.some((row) => row.direction === -1);
  const invoices = hasIn ? await invoicePort.open(tx, instanceId, accountId) : [];
  const bills = hasOut ? await openBillsToMatch(tx, instanceId) : [];
  const books = unmatched.length ? await booksCurrency(tx, instanceId) : 'CHF';
  /** Same currency and amount: distance 0; converted by the bank (transaction in the books' currency): relative distance ≤ 5 % (FX_MATCH_TOLERANCE). */
  const distance = (transaction: BankTransactionRow, currency: string, amount: string, amountBase: string): Money | null => {
    if (currency === transaction.currency) return toMoney(amount).eq(toMoney(transaction.amount)) ? toMoney(0) : null;
    if (transaction.currency !== books) return null;
    return fxMatchDistance(amountBase, transaction.amount);
  };
  const closest = <T,>(items: readonly T[], measure: (item: T) => Money | null): T[] =>
    items
      .map((item) => ({ item, off: measure(item) }))
      .filter((x): x is { item: T; off: Money } => x.off !== null)
      .sort((a, b) => a.off.comparedTo(b.off))
      .slice(0, 20)
      .map((x) => x.item);
  const suggestionsFor = (row: BankTransactionRow): Suggestion[] => {
    if (row.direction === 1) {
      return closest(invoices, (invoice) => distance(row, invoice.currency, invoice.amount, invoice.amountBase)).map((invoice) => ({
        kind: 'invoice',
        uuid: invoice.uuid,
        id: invoice.id,
        label: `${invoice.refNumber} ${invoice.company}`,
        date: invoice.date,
        amount: invoice.amount,
        currency: invoice.currency,
      }));
    }
    return closest(bills, (bill) => distance(row, bill.currency, bill.amount, bill.amountBase)).map((bill) => ({
      kind: 'bill',
      uuid: bill.uuid,
      id: bill.id,
      label: `${serverText(language, 'Bill {{id}}', { id: bill.id })} ${bill.companyName ?? bill.description}`.trim(),
      date: bill.date,
      amount: toFixedAmount(bill.amount),
      currency: bill.currency,
    }));
  };
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
      counterpartyIban: row.counterparty_iban,
      description: row.description,
      reason: row.unmatched_reason === null ? null : translateServerMessage(row.unmatched_reason, language),
      suggestions: suggestionsFor(row),
    })),
  };
}

/**
 * The bank transaction, locked until the end of the transaction (taken before any document's lock);
 * 404 unknown, 409 `already_done` when already booked or matched, so parallel calls book once.
 */
async function openBankTransaction(tx: Tx, instanceId: string, bankTransactionId: number): Promise<BankTransactionRow> {
  await lockAccountOfLine(tx, instanceId, bankTransactionId);
  const [row] = await tx.query<BankTransactionRow>(`SELECT ${BANK_TRANSACTION_COLUMNS} FROM bank_transaction WHERE instance_id = $1 AND id = $2 FOR UPDATE`, [
    instanceId,
    bankTransactionId,
  ]);
  if (!row) throw bankingError('bank_transaction_not_found', `Bank transaction ${bankTransactionId} not found`);
  if (row.match_id !== null || row.ignored_reason !== null) {
    if (row.ignored_reason !== null) throw alreadyDone(`bank transaction ${bankTransactionId} is ignored (${row.ignored_reason}): un-ignore it first`, { 'bankTransaction.id': 'ignored' });
    const state = row.matched_payable_id !== null ? `matched to bill ${row.matched_payable_id}` : row.matched_invoice_uuid !== null ? 'matched to an invoice' : 'booked';
    throw alreadyDone(`bank transaction ${bankTransactionId} is already ${state}`, { 'bankTransaction.id': `already ${state}` });
  }
  return row;
}

/**
 * Books an unmatched bank transaction against `counterAccountId` at its booking date: money in
 * debits the bank account, money out credits it. 409 when already booked or matched or on or
 * before the lock date; 400 when it is not in the instance currency (the ledger holds base amounts).
 */
export async function bookBankTransaction(tx: Tx, instanceId: string, userId: string | null, bankTransactionId: number, counterAccountId: number): Promise<number> {
  const row = await openBankTransaction(tx, instanceId, bankTransactionId);
  if ((await booksCurrency(tx, instanceId)) !== row.currency) {
    throw bankingError('foreign_currency', `the bank transaction is in ${row.currency}; book it by hand with its exchange rate`, { bankTransaction: 'foreign currency' });
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
  await recordClaims(tx, instanceId, row.account_id, [{ lineIds: [row.id], postings: row.statement ? [{ entryId, booked: true }] : [], entryId }]);
  return entryId;
}

const wrongDirection = (field: string, message: string) => bankingError('wrong_direction', message, { [field]: message });

export type MatchTarget = { invoiceUuid: string; payableUuid?: undefined } | { payableUuid: string; invoiceUuid?: undefined };

/**
 * Manual match (issue #5 §4): books bank transaction `bankTransactionId` as the payment of the
 * chosen document, exactly as the automatic match would — money in pays a sent invoice (invoice →
 * paid: debit the invoice's bank account / credit receivable, through the invoices module), money
 * out pays an approved bill or one in a transaction group (bill → paid: debit its liability /
 * credit this bank account; the group is paid once all its bills are) — at the booking date.
 * 400 `invoice.uuid` / `payable.uuid` when the direction does not fit; 404 unknown ids; 409 when
 * the transaction is already booked (`already_done`), the document is not open, the amount or currency differ, the
 * invoice is paid to another bank account, or the date is locked. Nothing is written on error.
 */
export async function matchBankTransaction(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  bankTransactionId: number,
  target: MatchTarget,
  invoicePort: InvoicePort,
): Promise<number> {
  const row = await openBankTransaction(tx, instanceId, bankTransactionId);
  const money = `${toFixedAmount(row.amount)} ${row.currency}`;
  if (target.invoiceUuid !== undefined) {
    if (row.direction !== 1) throw wrongDirection('invoice.uuid', 'money out cannot pay an invoice: choose a bill');
    const credit: BankCredit = {
      direction: 1,
      amount: row.amount,
      currency: row.currency,
      endToEndId: row.end_to_end_id,
      // The bank's reference is the dedup key when the bank gave one (importCamt).
      accountServicerRef: /^[0-9a-f]{64}$/.test(row.dedup_key) ? null : row.dedup_key.replace(/#\d+$/, ''),
      reference: row.reference,
      counterparty: row.counterparty,
      counterpartyIban: row.counterparty_iban,
      unstructured: row.description,
      bookingDate: row.booking_date,
      accountId: row.account_id,
    };
    const paid = await invoicePort.pay(tx, instanceId, credit, target.invoiceUuid);
    await recordClaims(tx, instanceId, row.account_id, [
      { lineIds: [row.id], postings: row.statement ? [{ entryId: paid.entryId, booked: true }] : [], entryId: paid.entryId, invoiceUuid: paid.invoiceUuid },
    ]);
    return paid.entryId;
  }
  if (row.direction !== -1) throw wrongDirection('payable.uuid', 'money in cannot pay a bill: choose an invoice');
  // Not locked here: settleBill locks the bill's group, then the bill, and checks its status again
  // (an open bill's amount and currency no longer change).
  const bill = await getPayable(tx, instanceId, { uuid: target.payableUuid });
  // A bill in another currency that the bank paid in the books' currency: settleBill books the exchange difference.
  const converted = bill.currency !== row.currency && row.currency === (await booksCurrency(tx, instanceId));
  if (!converted && (bill.currency !== row.currency || !toMoney(bill.amount).eq(toMoney(row.amount)))) {
    throw bankingError('amount_mismatch', `the bank transaction is ${money}, bill ${bill.id} is ${bill.amount} ${bill.currency}: book it against an account instead`, {
      'payable.uuid': 'amount or currency differ',
    });
  }
  if (converted && isImplausibleFxDifference(toBaseAmount(bill.amount, bill.exchangeRate), toFixedAmount(row.amount))) {
    throw bankingError('amount_mismatch', `the bank transaction is ${money}, bill ${bill.id} (${bill.amount} ${bill.currency}) is more than 25 % away from its booked amount: no exchange difference; book it against an account instead`, {
      'payable.uuid': 'amount differs too much',
    });
  }
  const entryId = await settleBill(tx, instanceId, userId, bill.id, row.account_id, row.booking_date, { amount: row.amount, currency: row.currency });
  await recordClaims(tx, instanceId, row.account_id, [{ lineIds: [row.id], postings: row.statement ? [{ entryId, booked: true }] : [], entryId, payableId: bill.id }]);
  return entryId;
}

/**
 * The bank transaction that a 'bank' entry booked (source_ref = its id), as the journal names it
 * (issue 11 §2): date, counterparty and amount, linked to its account's reconciliation page.
 * Undefined when there is no such transaction.
 */
export async function bankTransactionOfEntry(
  tx: Tx,
  instanceId: string,
  bankTransactionId: number,
): Promise<{ accountId: number; label: string } | undefined> {
  const [row] = await tx.query<{ account_id: number; booking_date: string; counterparty: string | null; amount: string; currency: string }>(
    'SELECT account_id, booking_date::text AS booking_date, counterparty, amount::text AS amount, currency FROM bank_transaction WHERE instance_id = $1 AND id = $2',
    [instanceId, bankTransactionId],
  );
  if (!row) return undefined;
  return { accountId: row.account_id, label: [String(bankTransactionId), row.booking_date, row.counterparty, `${row.amount} ${row.currency}`].filter(Boolean).join(' ') };
}
