/**
 * Bank file imports (issue #5 §4), each in ONE transaction so a crash leaves no half import:
 * - camt.053 / camt.054: every booked entry (or each of its transaction details) becomes a
 *   bank_transaction of the bank ledger account whose IBAN the file names. The unique key
 *   (account, bank reference) makes a re-import add nothing and book nothing twice. Then each new
 *   transaction is matched (matchDebit / the invoice port) and, when matched, booked. A match the
 *   ledger refuses (locked period…) is rolled back to a savepoint: the transaction stays unmatched
 *   with the reason, the rest of the file imports.
 * - pain.002: the group's bank payment status and, per transaction (or per block or for the whole
 *   group when the bank reports at that level), accepted/rejected with the reason code; a rejected
 *   bill is reopened (approved, out of the group) and its payment posting, if any, reversed.
 */
import { createHash } from 'node:crypto';
import { BankPaymentStatus, Currency, fxMatchDistance, PayableStatus, toBaseAmount, toFixedAmount, toMoney, type CurrencyCode, type Money } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { booksCurrency, chartAccountId, listLedgerAccounts, postJournalEntries, type AccountPosting, type BatchPosting, type JournalEntryInput } from '../accounting/accounting.service.js';
import { ibansOfLedgerAccount, ledgerAccountOfIban } from '../companies/companies.service.js';
import { addDays, lockReconciliation, NOT_PROVIDED, OpenPostings, recordClaims, REFERENCE_WINDOW_DAYS, type Claim } from './matching.service.js';
import { ownCompanyUuid } from '../instances/instances.service.js';
import {
  billIdOfEndToEndId,
  endToEndIdsOfBills,
  billsToMatch,
  lockBillAndGroup,
  lockGroupBills,
  lockGroupOfMessage,
  openBillsToMatch,
  recordGroupBankStatus,
  rejectBankPayment,
  reopenBillPayment,
  setBankTransactionStatus,
  settleBill,
} from '../payables/payables.service.js';
import { bankingError } from './banking.errors.js';
import { BankFileError, detectBankFile, parseCamt, parsePain002, type CamtBalance, type CamtEntry, type CamtRecord, type CamtTransaction, type Pain002Document } from './bank-files.js';
import { isSimilarName } from './names.js';
import { executionDateOfBlock } from '../../lib/pain001.js';

export type CamtImportResult = {
  kind: 'camt.052' | 'camt.053' | 'camt.054';
  file: { id: number; messageId: string } | null;
  duplicateFile: boolean;
  imported: number;
  duplicates: number;
  /** Lines reconciled (statement) or booked (notification) by this import: known + booked. */
  matched: number;
  /** Statement lines matched to postings already in the books (nothing booked). */
  known: number;
  /** Lines that booked something: a document's payment, bank charges, a reversal. */
  booked: number;
  transactions: {
    id: number;
    bookingDate: string;
    direction: number;
    amount: string;
    currency: string;
    /** 'payment', or 'charges' (the entry's amount minus its transactions, booked to 6940). */
    kind: 'payment' | 'charges';
    matched: boolean;
    /** Matched to postings already in the books. */
    known: boolean;
    payable: { id: number } | null;
    invoice: { uuid: string } | null;
    /** Why a candidate match was not booked (locked period, several candidates…), else null. */
    reason: string | null;
  }[];
};

export type Pain002ImportResult = {
  kind: 'pain.002';
  file: { id: number; messageId: string } | null;
  duplicateFile: boolean;
  transactionGroup: { id: number; status: number; bankStatus: number };
  accepted: number;
  rejected: number;
  reopened: { id: number; reason: string | null }[];
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const fileError = (message: string) => bankingError('bank_file_invalid', message, { file: message });

/**
 * Records the file by its SHA-256; undefined when the instance has it already. The unique key
 * (instance, sha256) decides, not the NOT EXISTS read: a parallel import of the same file waits here
 * until the first commits and then records nothing (issue 11 §1), so the file's postings exist once.
 * NOT EXISTS only spares an id in the usual sequential re-import.
 */
async function recordFile(tx: Tx, instanceId: string, userId: string | null, kind: string, messageId: string, xml: string) {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO bank_file (instance_id, id, kind, message_id, sha256, imported_by)
     SELECT $1, next_ids($1, 'bank_file'), $2, $3, $4, $5
      WHERE NOT EXISTS (SELECT 1 FROM bank_file WHERE instance_id = $1 AND sha256 = $4)
     ON CONFLICT (instance_id, sha256) DO NOTHING
     RETURNING id`,
    [instanceId, kind, messageId.slice(0, 200), sha256(xml), userId],
  );
  return row?.id;
}

/** The bank ledger account of an IBAN: an own-company payment profile with a ledger account. */
async function accountOfIban(tx: Tx, instanceId: string, iban: string): Promise<number | undefined> {
  const own = await ownCompanyUuid(tx, instanceId);
  return own === null ? undefined : ledgerAccountOfIban(tx, instanceId, own, iban);
}

/** A bank transaction offered to a matcher: what the bank said, where and when it was booked. */
export type BankCredit = CamtTransaction & { bookingDate: string; accountId: number };

/** A booked match, or why a candidate could not be booked. */
export type InvoiceMatch = { invoiceUuid: string; entryId: number } | { reason: string };

/** An open (sent) invoice a credit could pay, for manual matching. */
export interface OpenInvoice {
  uuid: string;
  id: number;
  refNumber: string;
  company: string;
  date: string;
  amount: string;
  currency: string;
  /** amount × the invoice's fxRate: the receivable in the books' currency, 2 decimals. */
  amountBase: string;
}

/**
 * What banking needs of the invoices module above it, so banking never reads invoice tables itself
 * (built in modules/wiring/wiring.ts, handed to the banking routes by app.ts; the routes refuse to
 * start without it, so no credit is left unmatched for want of wiring):
 * - `match`: the automatic match of a credit (by QR or creditor reference, then amount and debtor
 *   name), booked when found; `session` is one object per import the port may cache in.
 * - `pay`: books the credit as the payment of a chosen invoice (manual match), exactly as `match`
 *   books; throws 404/409 AppErrors.
 * - `open`: the sent invoices paid to `accountId`, for the manual-match suggestions.
 */
export interface InvoicePort {
  match(tx: Tx, instanceId: string, credit: BankCredit, session: Record<string, unknown>): Promise<InvoiceMatch | null>;
  /** Of `references` (as the bank wrote them), those a sent invoice carries: one call per import, so `match` runs only where it can find something. */
  sentReferences(tx: Tx, instanceId: string, references: readonly string[]): Promise<Set<string>>;
  pay(tx: Tx, instanceId: string, credit: BankCredit, invoiceUuid: string): Promise<{ invoiceUuid: string; entryId: number }>;
  open(tx: Tx, instanceId: string, accountId: number): Promise<OpenInvoice[]>;
  /**
   * The bank reversed the credit that paid invoice `invoiceUuid`: reverse its payment posting at
   * `date` and reopen it (invoicing `reopenInvoicePayment`); the reversal entry's id, null when not paid.
   */
  reopen(tx: Tx, instanceId: string, userId: string | null, invoiceUuid: string, date: string, reason: string): Promise<number | null>;
}

/**
 * Runs `fn` under a savepoint: an AppError (locked period, status) rolls back what `fn` wrote and
 * answers its message, so one refused booking does not abort a whole statement import.
 */
export async function attempt<T>(tx: Tx, fn: () => Promise<T>): Promise<{ value: T } | { reason: string }> {
  await tx.query('SAVEPOINT bank_match');
  try {
    const value = await fn();
    await tx.query('RELEASE SAVEPOINT bank_match');
    return { value };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT bank_match');
    return { reason: error.message.slice(0, 500) };
  }
}

type DebitMatch = { payableId: number; entryId: number | null } | { payableId: number | null; reason: string };

/**
 * Matches money out (issue #5 §4): first by end-to-end id (the bill's uuid without hyphens, as our
 * pain.001 writes it) to a bill in a transaction group (booked) or already paid (linked only); else
 * by exact amount and currency plus the creditor — IBAN of its payment profile or a similar name
 * (names.ts) — to exactly one bill that is approved or in an initiated group. The payment is booked
 * at the booking date on the statement's bank account (settleBill); a bill in another currency that
 * the bank debited in the books' currency gets its realized exchange difference booked, when the
 * debit is within 5 % of the booked amount (FX_MATCH_TOLERANCE; else unmatched with the reason).
 * Null: no candidate.
 */
export async function matchDebit(tx: Tx, instanceId: string, userId: string | null, debit: BankCredit): Promise<DebitMatch | null> {
  if (debit.endToEndId) {
    const found = await billIdOfEndToEndId(tx, instanceId, debit.endToEndId);
    // Locked group first, then the bill (the order of every group and bill change), and read again.
    const bill = found !== undefined && (await lockBillAndGroup(tx, instanceId, found));
    if (bill && (bill.status === PayableStatus.paid || bill.status === PayableStatus.inTransactionGroup)) {
      // The end-to-end id names the bill, the amount must agree too: a debit of another amount
      // carrying it (a bank's error, a merged order) settles nothing and is left for a person.
      if (bill.currency === debit.currency && !toMoney(bill.amount).eq(toMoney(debit.amount))) {
        return {
          payableId: null,
          reason: `the end-to-end id names bill ${bill.id} of ${toFixedAmount(bill.amount)} ${bill.currency}, the debit is ${toFixedAmount(debit.amount)} ${debit.currency}: match by hand or book against an account`,
        };
      }
      if (bill.status === PayableStatus.paid) return { payableId: bill.id, entryId: null };
      const amountBase = toBaseAmount(bill.amount, bill.exchangeRate);
      if (bill.currency !== debit.currency && !fxMatchDistance(amountBase, debit.amount)) {
        return {
          payableId: null,
          reason: `bill ${bill.id} (${toFixedAmount(bill.amount)} ${bill.currency}) is booked at ${amountBase}, the debit is ${debit.amount} ${debit.currency}: more than 5 % apart; match by hand or book against an account`,
        };
      }
      const booked = await attempt(tx, () => settleBill(tx, instanceId, userId, bill.id, debit.accountId, debit.bookingDate, debit));
      return 'value' in booked ? { payableId: bill.id, entryId: booked.value } : { payableId: null, reason: `bill ${bill.id}: ${booked.reason}` };
    }
  }
  if (Currency[debit.currency as CurrencyCode] === undefined) return null;
  const candidates = await billsToMatch(tx, instanceId, debit.amount, debit.currency as CurrencyCode);
  const creditor = candidates.filter(
    (bill) => (debit.counterpartyIban && bill.iban === debit.counterpartyIban) || isSimilarName(bill.companyName, debit.counterparty),
  );
  if (creditor.length === 0) return null;
  if (creditor.length > 1) {
    return { payableId: null, reason: `${creditor.length} open bills (${creditor.map((b) => b.id).join(', ')}) match amount and creditor: match by hand` };
  }
  const billId = creditor[0]!.id;
  const booked = await attempt(tx, () => settleBill(tx, instanceId, userId, billId, debit.accountId, debit.bookingDate, debit));
  return 'value' in booked ? { payableId: billId, entryId: booked.value } : { payableId: null, reason: `bill ${billId}: ${booked.reason}` };
}

/** A bank line to insert: a camt transaction, or the charges of its entry. */
type Unit = CamtTransaction & { kind: 'payment' | 'charges' };

/** Cents-free signed sum helper: the amounts of `units` with their direction. */
const signedSum = (units: readonly { direction: number; amount: string }[]) => units.reduce((sum, u) => sum.plus(toMoney(u.amount).times(u.direction)), toMoney(0));

/**
 * The lines a camt entry books: its transaction details, or the entry itself when it has none; plus,
 * when the entry moved more or less than its details (issue 14 §3), a line for the difference: the
 * bank's charges (kind 'charges', booked to 6940) when the entry's or its details' `Chrgs` say so, else
 * a line of the difference for a person to book. Details in another currency than the entry are
 * not summed (the bank converted them; the entry's amount is what moved).
 */
export function unitsOf(entry: CamtEntry): Unit[] {
  const payment = (t: CamtTransaction): Unit => ({ ...t, kind: 'payment' });
  const difference = (signed: Money): Unit[] => {
    if (signed.isZero()) return [];
    const isCharges = entry.charges !== null && toMoney(entry.charges).eq(signed.abs());
    return [
      {
        direction: signed.isNegative() ? -1 : 1,
        amount: toFixedAmount(signed.abs()),
        currency: entry.currency,
        endToEndId: null,
        accountServicerRef: null,
        reference: null,
        counterparty: isCharges ? 'Bank charges' : 'Entry difference',
        counterpartyIban: null,
        unstructured: `${isCharges ? 'charges' : 'difference between the entry and its transactions'} of entry ${entry.accountServicerRef ?? entry.entryRef ?? ''}`.trim(),
        kind: isCharges ? 'charges' : 'payment',
      },
    ];
  };
  const entrySigned = toMoney(entry.amount).times(entry.direction);
  if (entry.transactions.length === 1) {
    const only = entry.transactions[0]!;
    // A lone detail whose own amount plus its charges make the entry: the payment and the charges.
    if (entry.charges !== null && only.ownAmount) {
      const rest = entrySigned.minus(toMoney(only.ownAmount).times(entry.direction));
      if (!rest.isZero() && rest.abs().eq(toMoney(entry.charges))) return [payment({ ...only, amount: only.ownAmount, currency: entry.currency }), ...difference(rest)];
    }
    // Else the entry's amount is what moved (banks fill a lone detail's Amt unreliably,
    // e.g. genkgo's camt.053 sample: entry 8.85 EUR, detail 0 SEK).
    return [payment({ ...only, amount: entry.amount, currency: entry.currency })];
  }
  if (entry.transactions.length) {
    const units = entry.transactions.map(payment);
    if (units.some((unit) => unit.currency !== entry.currency)) return units;
    return [...units, ...difference(entrySigned.minus(signedSum(units)))];
  }
  return [
    payment({
      direction: entry.direction,
      amount: entry.amount,
      currency: entry.currency,
      endToEndId: null,
      accountServicerRef: entry.accountServicerRef,
      reference: null,
      counterparty: null,
      counterpartyIban: null,
      unstructured: entry.additionalInfo,
    }),
  ];
}

/** The account a record of a camt file belongs to: its IBAN's, which must be the chosen account's (issue 14 §2). */
async function accountOfRecord(tx: Tx, instanceId: string, record: CamtRecord, accountId: number | undefined): Promise<number> {
  const iban = record.account?.replace(/\s+/g, '').toUpperCase() ?? null;
  const byIban = iban ? await accountOfIban(tx, instanceId, iban) : undefined;
  if (accountId === undefined) {
    if (byIban === undefined) throw fileError(`no bank ledger account has IBAN ${iban ?? '?'} in its payment profile: add it there, or choose the account (?account=id)`);
    return byIban;
  }
  const [chosen] = await listLedgerAccounts(tx, instanceId, { ids: [accountId] });
  if (!chosen) throw bankingError('ledger_account_unknown', `ledger account ${accountId} not found`, { account: `ledger account ${accountId} not found` });
  if (byIban === accountId) return accountId;
  const own = await ownCompanyUuid(tx, instanceId);
  const ibans = own === null ? [] : await ibansOfLedgerAccount(tx, instanceId, own, accountId);
  // A file without an IBAN (Othr/Id only) goes where the user put it, as before.
  if (iban === null || !/^[A-Z]{2}\d{2}/.test(iban)) return accountId;
  throw fileError(
    `This statement is for IBAN ${iban}, but ledger account ${chosen.number} ${chosen.name} has ${ibans.length ? `IBAN ${ibans.join(', ')}` : 'no IBAN in its payment profile'}: ` +
      'import it on the ledger account of that IBAN',
  );
}

/**
 * Statement balances (issue 14 §2): opening booked balance (OPBD, else PRCD) plus the booked entries
 * must give the closing booked balance (CLBD); 400 with the figures otherwise.
 */
function checkBalances(record: CamtRecord): { opening: CamtBalance | undefined; closing: CamtBalance | undefined } {
  const opening = record.balances.find((b) => b.type === 'OPBD') ?? record.balances.find((b) => b.type === 'PRCD');
  const closing = record.balances.find((b) => b.type === 'CLBD');
  if (opening && closing) {
    const movements = record.entries.filter((e) => !e.status || e.status === 'BOOK').reduce((sum, e) => sum.plus(toMoney(e.amount).times(e.direction)), toMoney(0));
    const expected = toMoney(opening.amount).plus(movements);
    if (!expected.eq(toMoney(closing.amount))) {
      throw fileError(
        `The statement ${record.id ?? ''} does not add up: opening balance ${toFixedAmount(opening.amount)} + booked entries ${toFixedAmount(movements)} = ` +
          `${toFixedAmount(expected)}, but its closing balance is ${toFixedAmount(closing.amount)} (${toFixedAmount(toMoney(closing.amount).minus(expected))} apart)`.replace(/\s+/g, ' '),
      );
    }
  }
  return { opening, closing };
}

/**
 * The ledger account bank charges are booked to: the one chosen in the banking settings, else 6940
 * Bankspesen of the Swiss SME chart (created when missing).
 */
export async function chargesAccountId(tx: Tx, instanceId: string): Promise<number> {
  const [chosen] = await tx.query<{ charges_account_id: number }>('SELECT charges_account_id FROM bank_settings WHERE instance_id = $1', [instanceId]);
  if (chosen) return chosen.charges_account_id;
  return chartAccountId(tx, instanceId, { number: BANK_CHARGES_ACCOUNT, name: 'Bankspesen' }, (await booksCurrency(tx, instanceId)) as CurrencyCode);
}

/** The journal entry of a charges line: the bank account against the bank-charges account (`chargesAccountId`). */
function chargesEntry(
  line: { id: number; accountId: number; bookingDate: string; direction: number; amount: string },
  charges: number,
): Omit<JournalEntryInput, 'source'> {
  const direction = line.direction === 1 ? 1 : -1;
  return {
    dateLedger: line.bookingDate,
    description: `Bank charges (bank line ${line.id})`,
    sourceRef: String(line.id),
    lines: [
      { accountId: line.accountId, amount: line.amount, direction },
      { accountId: charges, amount: line.amount, direction: direction === 1 ? -1 : 1 },
    ],
  };
}

/** The ledger account bank charges go to (Swiss SME chart 6940 Bankspesen). */
export const BANK_CHARGES_ACCOUNT = '6940';

type InsertedLine = Unit & { id: number; accountId: number; bookingDate: string; valueDate: string | null; reversal: boolean; entryRef: string | null };

/**
 * A reversal (RvslInd, issue 14 §3): the earlier line of the other direction, same amount and the
 * same end-to-end id or reference, that paid a document, has its document reopened and its payment
 * posting reversed at the reversal's date; the reversal line claims that reversal. Null when no such
 * line (the reversal is then matched like any line).
 */
async function reverseDocumentPayment(tx: Tx, instanceId: string, userId: string | null, line: InsertedLine, invoicePort: InvoicePort): Promise<Claim | { reason: string } | null> {
  if (!line.endToEndId && !line.reference) return null;
  const [original] = await tx.query<{ id: number; matched_invoice_uuid: string | null; matched_payable_id: number | null }>(
    `SELECT id, matched_invoice_uuid, matched_payable_id FROM bank_transaction
      WHERE instance_id = $1 AND account_id = $2 AND direction = $3 AND amount = $4 AND NOT reversal AND id <> $5
        AND (matched_invoice_uuid IS NOT NULL OR matched_payable_id IS NOT NULL)
        AND ((end_to_end_id = $6 AND $6 <> '${NOT_PROVIDED}') OR reference = $7)
      ORDER BY booking_date DESC, id DESC LIMIT 1 FOR UPDATE`,
    [instanceId, line.accountId, -line.direction, line.amount, line.id, line.endToEndId, line.reference],
  );
  if (!original) return null;
  const why = `reversed by the bank on ${line.bookingDate}`;
  const reopened = await attempt(tx, async () =>
    original.matched_payable_id !== null
      ? reopenBillPayment(tx, instanceId, userId, original.matched_payable_id, line.bookingDate, why)
      : invoicePort.reopen(tx, instanceId, userId, original.matched_invoice_uuid!, line.bookingDate, why),
  );
  if ('reason' in reopened) return { reason: reopened.reason };
  if (reopened.value === null) return null;
  return {
    lineIds: [line.id],
    postings: [{ entryId: reopened.value, booked: true }],
    entryId: reopened.value,
    invoiceUuid: original.matched_invoice_uuid,
    payableId: original.matched_payable_id,
  };
}

export async function importCamt(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  xml: string,
  invoicePort: InvoicePort,
  accountId?: number,
): Promise<CamtImportResult> {
  const doc = parseCamt(xml);
  const statement = doc.kind !== 'camt.054';
  // Everything is checked before anything is written: accounts, IBANs, balances.
  const records = [];
  for (const record of doc.records) {
    const account = await accountOfRecord(tx, instanceId, record, accountId);
    records.push({ record, account, ...(statement ? checkBalances(record) : { opening: undefined, closing: undefined }) });
  }
  const fileId = await recordFile(tx, instanceId, userId, doc.kind, doc.messageId, xml);
  const result: CamtImportResult = {
    kind: doc.kind,
    file: fileId === undefined ? null : { id: fileId, messageId: doc.messageId },
    duplicateFile: fileId === undefined,
    imported: 0,
    duplicates: 0,
    matched: 0,
    known: 0,
    booked: 0,
    transactions: [],
  };
  const booked = (entry: CamtEntry) => !entry.status || entry.status === 'BOOK';
  if (fileId === undefined) {
    result.duplicates = doc.records.reduce((n, record) => n + record.entries.filter(booked).reduce((m, entry) => m + unitsOf(entry).length, 0), 0);
    return result;
  }
  const accounts = [...new Set(records.map((r) => r.account))].sort((a, b) => a - b);
  for (const account of accounts) await lockReconciliation(tx, instanceId, account);
  const first = records[0];
  if (first) {
    const { account, record, opening, closing } = first;
    await tx.query(
      `UPDATE bank_file SET account_id = $3, iban = $4, closing_balance = $5, closing_date = $6, opening_balance = $7, opening_date = $8 WHERE instance_id = $1 AND id = $2`,
      [instanceId, fileId, account, record.account?.replace(/\s+/g, '').toUpperCase().slice(0, 42) ?? null, statement ? (closing?.amount ?? null) : null,
        statement ? (closing?.date ?? null) : null, statement ? (opening?.amount ?? null) : null, statement ? (opening?.date ?? null) : null],
    );
  }
  // 1. All lines in one statement (set-based): the unique key (account, bank reference) skips those known.
  const pending: (Omit<InsertedLine, 'id'> & { key: string })[] = [];
  for (const { record, account } of records) {
    for (const entry of record.entries) {
      // Only booked entries move money (pending/info entries come again once booked).
      if (!booked(entry)) continue;
      const bookingDate = entry.bookingDate ?? entry.valueDate;
      if (!bookingDate) throw fileError(`entry ${entry.accountServicerRef ?? ''} has no booking date`);
      for (const [index, unit] of unitsOf(entry).entries()) {
        const base =
          unit.kind === 'charges'
            ? `${entry.accountServicerRef ?? sha256(JSON.stringify([bookingDate, entry]))}#charges`
            : (unit.accountServicerRef ??
              (entry.accountServicerRef ? `${entry.accountServicerRef}#${index}` : sha256(JSON.stringify([bookingDate, unit, entry.entryRef, index]))));
        // A statement line never collides with the camt.054 notification of the same money: both exist, the statement's is reconciled.
        const key = statement ? `S:${base}` : base;
        pending.push({
          ...unit,
          key: key.slice(0, 300),
          accountId: account,
          bookingDate,
          valueDate: entry.valueDate,
          reversal: entry.reversal,
          entryRef: entry.accountServicerRef,
          currency: unit.currency || 'CHF',
          accountServicerRef: unit.accountServicerRef ?? entry.accountServicerRef,
        });
      }
    }
  }
  const inserted = pending.length
    ? await tx.query<{ id: number; account_id: number; dedup_key: string }>(
        `WITH ids AS (SELECT next_ids($1, 'bank_transaction', $3) AS last)
         INSERT INTO bank_transaction (instance_id, id, account_id, bank_file_id, dedup_key, booking_date, value_date, direction, amount, currency,
                                       reference, end_to_end_id, counterparty, description, counterparty_iban, kind, reversal, statement)
         SELECT $1, ids.last - $3 + u.ord::integer, u.account_id, $2, u.key, u.booking_date, u.value_date, u.direction, u.amount, u.currency,
                u.reference, u.e2e, u.counterparty, u.description, u.iban, u.kind, u.reversal, $18
           FROM ids, unnest($4::integer[], $5::text[], $6::date[], $7::date[], $8::smallint[], $9::numeric[], $10::text[], $11::text[], $12::text[],
                            $13::text[], $14::text[], $15::text[], $16::text[], $17::boolean[])
                WITH ORDINALITY AS u(account_id, key, booking_date, value_date, direction, amount, currency, reference, e2e, counterparty, description, iban, kind, reversal, ord)
         ON CONFLICT (instance_id, account_id, dedup_key) DO NOTHING
         RETURNING id, account_id, dedup_key`,
        [
          instanceId, fileId, pending.length,
          pending.map((p) => p.accountId), pending.map((p) => p.key), pending.map((p) => p.bookingDate), pending.map((p) => p.valueDate),
          pending.map((p) => p.direction), pending.map((p) => p.amount), pending.map((p) => p.currency), pending.map((p) => p.reference),
          pending.map((p) => p.endToEndId), pending.map((p) => p.counterparty), pending.map((p) => p.unstructured),
          pending.map((p) => p.counterpartyIban?.slice(0, 42) ?? null), pending.map((p) => p.kind), pending.map((p) => p.reversal), statement,
        ],
      )
    : [];
  const idOf = new Map(inserted.map((row) => [`${row.account_id}|${row.dedup_key}`, row.id]));
  const lines: InsertedLine[] = [];
  for (const p of pending) {
    const id = idOf.get(`${p.accountId}|${p.key}`);
    if (id === undefined) {
      result.duplicates += 1;
      continue;
    }
    idOf.delete(`${p.accountId}|${p.key}`);
    lines.push({ ...p, id });
  }
  result.imported = lines.length;
  // 2. Matching, per account: what can match is read once; a line calls a document matcher only when one could fit.
  let chargesAccountPromise: Promise<number> | null = null;
  const chargesAccount = () => (chargesAccountPromise ??= chargesAccountId(tx, instanceId));
  const session: Record<string, unknown> = {};
  const books = lines.length ? await booksCurrency(tx, instanceId) : 'CHF';
  const reasons: [number, string][] = [];
  for (const account of accounts) {
    const mine = lines.filter((line) => line.accountId === account);
    if (!mine.length) continue;
    const dates = mine.map((line) => line.bookingDate).sort();
    const open = statement
      ? await OpenPostings.load(tx, instanceId, account, addDays(dates[0]!, -REFERENCE_WINDOW_DAYS), addDays(dates.at(-1)!, REFERENCE_WINDOW_DAYS), mine[0]!.currency !== books ? mine[0]!.currency : null)
      : null;
    const invoiceAmounts = mine.some((l) => l.direction === 1) ? new Set((await invoicePort.open(tx, instanceId, account)).map((i) => `${i.currency}|${toFixedAmount(i.amount)}`)) : new Set<string>();
    const billAmounts = mine.some((l) => l.direction === -1) ? new Set((await openBillsToMatch(tx, instanceId)).map((b) => `${b.currency}|${toFixedAmount(b.amount)}`)) : new Set<string>();
    // What the references and end-to-end ids can name, asked once for all lines (issue 14 §4).
    const references = await invoicePort.sentReferences(tx, instanceId, mine.filter((l) => l.direction === 1 && !l.reversal && l.reference).map((l) => l.reference!));
    const billEndToEndIds = await endToEndIdsOfBills(tx, instanceId, mine.filter((l) => l.direction === -1 && !l.reversal && l.endToEndId).map((l) => l.endToEndId!));
    // The bank charges of the account's lines, posted in one call (issue 14 §4); a charge dated in a
    // locked period stays open with the lock's message.
    const chargesLines = mine.filter((line) => line.kind === 'charges');
    const chargesPosted = new Map<number, BatchPosting>();
    if (chargesLines.length) {
      const chargesTo = await chargesAccount();
      const postings = await postJournalEntries(tx, instanceId, userId, 'bank', chargesLines.map((line) => chargesEntry(line, chargesTo)));
      chargesLines.forEach((line, index) => chargesPosted.set(line.id, postings[index]!));
    }
    const claims: Claim[] = [];
    for (const line of mine) {
      const offered: BankCredit = { ...line, bookingDate: line.bookingDate, accountId: account };
      const claimOf = (postings: AccountPosting[]): Claim => ({ lineIds: [line.id], postings: open!.take(postings).map((p) => ({ lineId: p.lineId, entryId: p.entryId, booked: false })) });
      let claim: Claim | null = null;
      let reason: string | null = null;
      let known = false;
      if (line.kind === 'charges') {
        const done = chargesPosted.get(line.id)!;
        if ('reason' in done) reason = `bank charges: ${done.reason}`;
        else claim = { lineIds: [line.id], postings: statement ? [{ entryId: done.id, booked: true }] : [], entryId: done.id };
      } else {
        if (line.reversal) {
          const reversed = await reverseDocumentPayment(tx, instanceId, userId, line, invoicePort);
          if (reversed && 'reason' in reversed) reason = reversed.reason;
          else if (reversed) claim = statement ? reversed : { ...reversed, postings: [] };
        }
        // Already in the books, named by the end-to-end id of our own payment order.
        if (!claim && open && line.direction === -1) {
          const named = open.byEndToEndId(line);
          if (named.length) ({ claim, known } = { claim: claimOf(named), known: true });
        }
        // An open document it pays (booked now), by reference, end-to-end id, or amount and name.
        const couldPay = line.direction === 1
          ? !line.reversal && ((!!line.reference && references.has(line.reference)) || invoiceAmounts.has(`${line.currency}|${toFixedAmount(line.amount)}`))
          : !line.reversal && ((!!line.endToEndId && billEndToEndIds.has(line.endToEndId.toLowerCase())) || billAmounts.has(`${line.currency}|${toFixedAmount(line.amount)}`));
        if (!claim && couldPay) {
          if (line.direction === -1) {
            const match = await matchDebit(tx, instanceId, userId, offered);
            if (match && 'reason' in match) reason = match.reason;
            else if (match && match.entryId !== null) {
              claim = { lineIds: [line.id], postings: statement ? [{ entryId: match.entryId, booked: true }] : [], entryId: match.entryId, payableId: match.payableId };
            } else if (match && !statement) claim = { lineIds: [line.id], postings: [], payableId: match.payableId };
          } else {
            const match = await invoicePort.match(tx, instanceId, offered, session);
            if (match && 'reason' in match) reason = match.reason;
            else if (match) claim = { lineIds: [line.id], postings: statement ? [{ entryId: match.entryId, booked: true }] : [], entryId: match.entryId, invoiceUuid: match.invoiceUuid };
          }
        }
        // Already in the books: the one posting of its amount within ±5 days, or one batch of postings.
        if (!claim && open) {
          const found = open.byAmountAndDate(line);
          const batch = found.length ? found : open.byBatch(line);
          if (batch.length) ({ claim, known } = { claim: claimOf(batch), known: true });
        }
      }
      if (claim) {
        claims.push(claim);
        if (known) result.known += 1;
        else result.booked += 1;
      } else if (reason) reasons.push([line.id, reason]);
      result.transactions.push({
        id: line.id,
        bookingDate: line.bookingDate,
        direction: line.direction,
        amount: line.amount,
        currency: line.currency,
        kind: line.kind,
        matched: claim !== null,
        known,
        payable: claim?.payableId != null ? { id: claim.payableId } : null,
        invoice: claim?.invoiceUuid ? { uuid: claim.invoiceUuid } : null,
        reason: claim ? null : reason,
      });
    }
    await recordClaims(tx, instanceId, account, claims);
  }
  if (reasons.length) {
    await tx.query(
      `UPDATE bank_transaction t SET unmatched_reason = u.reason FROM unnest($2::integer[], $3::text[]) AS u(id, reason) WHERE t.instance_id = $1 AND t.id = u.id`,
      [instanceId, reasons.map((r) => r[0]), reasons.map((r) => r[1].slice(0, 500))],
    );
  }
  result.matched = result.transactions.filter((t) => t.matched).length;
  return result;
}

const ACCEPTED = new Set(['ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACCC']);

/** Group bank status from a pain.002 (spec §4 "Bank payment status") and what it did to the bills. */
function bankStatusOf(groupStatus: string | null, bills: number, accepted: number, rejected: number): number {
  if (groupStatus === 'RJCT' || (bills > 0 && rejected === bills)) return BankPaymentStatus.pain002Rjctd;
  if (groupStatus === 'PART' || rejected > 0) return BankPaymentStatus.pain002Part;
  if (groupStatus === 'ACSC') return BankPaymentStatus.paid;
  if ((groupStatus && ACCEPTED.has(groupStatus)) || accepted > 0) return BankPaymentStatus.pain002Accp;
  return BankPaymentStatus.pending;
}

interface BillOutcome {
  status: string;
  reason: string | null;
}

const reasonOf = (code: string | null, text: string | null) => [code, text].filter(Boolean).join(' ') || null;

/**
 * Each bill's status as the report gives it, at the most specific level present (ISO 20022
 * pain.002, SPS IG "Customer Payment Status Report"): the transaction's TxSts, else its block's
 * PmtInfSts, else the group's GrpSts. PART (and no status) at a level says "see below": a bill no
 * level speaks for keeps its state. A block finds its bills by the execution date in its
 * OrgnlPmtInfId (pain001.ts paymentInformationId); without one, a group with a single execution date
 * (or a report with a single block) is that block.
 */
function outcomes(doc: Pain002Document, bills: { id: number; e2e: string; date: string }[]): Map<number, BillOutcome> {
  const result = new Map<number, BillOutcome>();
  const final = (status: string | null) => (status && status !== 'PART' ? status : null);
  const groupStatus = final(doc.groupStatus);
  const groupReason = reasonOf(doc.groupReason, doc.groupReasonText);
  if (groupStatus) for (const bill of bills) result.set(bill.id, { status: groupStatus, reason: groupReason });
  const dates = new Set(bills.map((bill) => bill.date));
  const byE2e = new Map(bills.map((bill) => [bill.e2e, bill]));
  for (const block of doc.blocks) {
    const blockReason = reasonOf(block.reasonCode, block.reasonText) ?? groupReason;
    const blockStatus = final(block.status);
    if (blockStatus) {
      const date = executionDateOfBlock(block.originalPaymentInformationId);
      const members = date ? bills.filter((bill) => bill.date === date) : dates.size === 1 || doc.blocks.length === 1 ? bills : [];
      for (const bill of members) result.set(bill.id, { status: blockStatus, reason: blockReason });
    }
    for (const line of block.transactions) {
      const bill = line.originalEndToEndId ? byE2e.get(line.originalEndToEndId.toLowerCase()) : undefined;
      const status = final(line.status) ?? blockStatus ?? groupStatus;
      if (!bill || !status) continue;
      result.set(bill.id, { status, reason: reasonOf(line.reasonCode, line.reasonText) ?? blockReason });
    }
  }
  return result;
}

/**
 * Applies a pain.002 to the transaction group it answers (found by the original message id), under
 * the group's row lock, then its bills' (payables' lock order). A file already imported changes
 * nothing and answers the group as it is.
 */
export async function importPain002(tx: Tx, instanceId: string, userId: string | null, xml: string): Promise<Pain002ImportResult> {
  const doc = parsePain002(xml);
  const group = await lockGroupOfMessage(tx, instanceId, doc.originalMessageId);
  if (!group) throw fileError(`no transaction group sent with message id ${doc.originalMessageId}`);
  const fileId = await recordFile(tx, instanceId, userId, 'pain.002', doc.messageId, xml);
  const bills = await lockGroupBills(tx, instanceId, group.id);
  let accepted = 0;
  let rejected = 0;
  const reopened: { id: number; reason: string | null }[] = [];
  let after = group;
  if (fileId !== undefined) {
    const byBill = outcomes(doc, bills.map((bill) => ({ id: bill.id, e2e: bill.endToEndId, date: bill.executionDate })));
    for (const bill of bills) {
      const outcome = byBill.get(bill.id);
      if (!outcome) continue;
      if (outcome.status === 'RJCT') {
        rejected += 1;
        await rejectBankPayment(tx, instanceId, userId, bill, outcome.reason);
        reopened.push({ id: bill.id, reason: outcome.reason });
      } else if (ACCEPTED.has(outcome.status)) {
        accepted += 1;
        await setBankTransactionStatus(tx, instanceId, bill.id, 'accepted');
      } else {
        await setBankTransactionStatus(tx, instanceId, bill.id, 'pending');
      }
    }
    const bankStatus = bankStatusOf(doc.groupStatus, bills.length, accepted, rejected);
    after = await recordGroupBankStatus(tx, instanceId, group, bankStatus, bills.length > 0 && rejected === bills.length);
  }
  return {
    kind: 'pain.002',
    file: fileId === undefined ? null : { id: fileId, messageId: doc.messageId },
    duplicateFile: fileId === undefined,
    transactionGroup: { id: group.id, status: after.status, bankStatus: after.bankStatus },
    accepted,
    rejected,
    reopened,
  };
}

/**
 * Imports any supported bank file; 400 on `file` for an unknown or broken one, with a sentence for a
 * person; the parser's own text goes to `log` only.
 */
export async function importBankFile(tx: Tx, instanceId: string, userId: string | null, xml: string, invoicePort: InvoicePort, accountId?: number, log?: (detail: string) => void) {
  try {
    const { kind } = detectBankFile(xml);
    return kind === 'pain.002' ? await importPain002(tx, instanceId, userId, xml) : await importCamt(tx, instanceId, userId, xml, invoicePort, accountId);
  } catch (error) {
    if (error instanceof BankFileError) {
      if (error.detail) log?.(error.detail);
      throw fileError(error.message);
    }
    throw error;
  }
}
