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
import { BankPaymentStatus, Currency, fxMatchDistance, PayableStatus, toBaseAmount, toFixedAmount, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import { ledgerAccountOfIban } from '../companies/companies.service.js';
import { ownCompanyUuid } from '../instances/instances.service.js';
import {
  billIdOfEndToEndId,
  billsToMatch,
  lockBillAndGroup,
  lockGroupBills,
  lockGroupOfMessage,
  recordGroupBankStatus,
  rejectBankPayment,
  setBankTransactionStatus,
  settleBill,
} from '../payables/payables.service.js';
import { bankingError } from './banking.errors.js';
import { BankFileError, detectBankFile, parseCamt, parsePain002, type CamtEntry, type CamtTransaction, type Pain002Document } from './bank-files.js';
import { isSimilarName } from './names.js';
import { executionDateOfBlock } from '../../lib/pain001.js';

export type CamtImportResult = {
  kind: 'camt.053' | 'camt.054';
  file: { id: number; messageId: string } | null;
  duplicateFile: boolean;
  imported: number;
  duplicates: number;
  matched: number;
  transactions: {
    id: number;
    bookingDate: string;
    direction: number;
    amount: string;
    currency: string;
    matched: boolean;
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
  pay(tx: Tx, instanceId: string, credit: BankCredit, invoiceUuid: string): Promise<{ invoiceUuid: string; entryId: number }>;
  open(tx: Tx, instanceId: string, accountId: number): Promise<OpenInvoice[]>;
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

/** The units a camt entry books: its transaction details, or the entry itself when it has none. */
function unitsOf(entry: CamtEntry): CamtTransaction[] {
  // One detail: the entry's amount is what moved (banks fill a lone detail's Amt unreliably,
  // e.g. genkgo's camt.053 sample: entry 8.85 EUR, detail 0 SEK).
  if (entry.transactions.length === 1) return [{ ...entry.transactions[0]!, amount: entry.amount, currency: entry.currency }];
  if (entry.transactions.length) return entry.transactions;
  return [
    {
      direction: entry.direction,
      amount: entry.amount,
      currency: entry.currency,
      endToEndId: null,
      accountServicerRef: entry.accountServicerRef,
      reference: null,
      counterparty: null,
      counterpartyIban: null,
      unstructured: entry.additionalInfo,
    },
  ];
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
  const fileId = await recordFile(tx, instanceId, userId, doc.kind, doc.messageId, xml);
  const result: CamtImportResult = {
    kind: doc.kind,
    file: fileId === undefined ? null : { id: fileId, messageId: doc.messageId },
    duplicateFile: fileId === undefined,
    imported: 0,
    duplicates: 0,
    matched: 0,
    transactions: [],
  };
  if (fileId === undefined) {
    result.duplicates = doc.records.reduce((n, record) => n + record.entries.reduce((m, entry) => m + unitsOf(entry).length, 0), 0);
    return result;
  }
  const session: Record<string, unknown> = {};
  for (const record of doc.records) {
    const account = (record.account && (await accountOfIban(tx, instanceId, record.account))) || accountId;
    if (account === undefined) throw fileError(`no bank ledger account with IBAN ${record.account ?? '?'}: choose the account (?account=id)`);
    if (accountId !== undefined && account !== accountId) throw fileError(`the file is for ${record.account}, not for the chosen account`);
    const known = await listLedgerAccounts(tx, instanceId, { ids: [account] });
    if (!known.length) throw bankingError('ledger_account_unknown', `ledger account ${account} not found`, { account: `ledger account ${account} not found` });
    const closing = record.balances.find((balance) => balance.type === 'CLBD');
    if (doc.kind === 'camt.053' && closing) {
      await tx.query('UPDATE bank_file SET account_id = $3, closing_balance = $4, closing_date = $5 WHERE instance_id = $1 AND id = $2', [
        instanceId,
        fileId,
        account,
        closing.amount,
        closing.date,
      ]);
    }
    for (const entry of record.entries) {
      // Only booked entries move money (pending/info entries come again once booked).
      if (entry.status && entry.status !== 'BOOK') continue;
      const bookingDate = entry.bookingDate ?? entry.valueDate;
      if (!bookingDate) throw fileError(`entry ${entry.accountServicerRef ?? ''} has no booking date`);
      const units = unitsOf(entry);
      for (const [index, unit] of units.entries()) {
        const key =
          unit.accountServicerRef ??
          (entry.accountServicerRef ? `${entry.accountServicerRef}#${index}` : sha256(JSON.stringify([bookingDate, unit, entry.entryRef, index])));
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO bank_transaction (instance_id, id, account_id, bank_file_id, dedup_key, booking_date, value_date, direction, amount,
                                         currency, reference, end_to_end_id, counterparty, description, counterparty_iban)
           VALUES ($1, next_ids($1, 'bank_transaction'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
           ON CONFLICT (instance_id, account_id, dedup_key) DO NOTHING RETURNING id`,
          [instanceId, account, fileId, key.slice(0, 300), bookingDate, entry.valueDate, unit.direction, unit.amount, unit.currency || 'CHF',
            unit.reference, unit.endToEndId, unit.counterparty, unit.unstructured ?? entry.additionalInfo, unit.counterpartyIban?.slice(0, 42) ?? null],
        );
        if (!row) {
          result.duplicates += 1;
          continue;
        }
        result.imported += 1;
        // The bank's reference for the booking (bankRef): the detail's, else its entry's.
        const offered: BankCredit = {
          ...unit,
          accountServicerRef: unit.accountServicerRef ?? entry.accountServicerRef,
          currency: unit.currency || 'CHF',
          bookingDate,
          accountId: account,
        };
        let payableId: number | null = null;
        let invoiceUuid: string | null = null;
        let entryId: number | null = null;
        let reason: string | null = null;
        if (unit.direction === -1) {
          const match = await matchDebit(tx, instanceId, userId, offered);
          if (match && 'reason' in match) reason = match.reason;
          else if (match) ({ payableId, entryId } = match);
        } else {
          const match = await invoicePort.match(tx, instanceId, offered, session);
          if (match && 'reason' in match) reason = match.reason;
          else if (match) ({ invoiceUuid, entryId } = match);
        }
        if (payableId !== null || invoiceUuid !== null || reason !== null) {
          await tx.query(
            'UPDATE bank_transaction SET matched_payable_id = $3, matched_invoice_uuid = $4, entry_id = $5, unmatched_reason = $6 WHERE instance_id = $1 AND id = $2',
            [instanceId, row.id, payableId, invoiceUuid, entryId, reason],
          );
        }
        const matched = payableId !== null || invoiceUuid !== null;
        if (matched) result.matched += 1;
        result.transactions.push({
          id: row.id,
          bookingDate,
          direction: unit.direction,
          amount: unit.amount,
          currency: unit.currency,
          matched,
          payable: payableId === null ? null : { id: payableId },
          invoice: invoiceUuid === null ? null : { uuid: invoiceUuid },
          reason,
        });
      }
    }
  }
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

/** Imports any supported bank file; 400 on `file` for an unknown or broken one. */
export async function importBankFile(tx: Tx, instanceId: string, userId: string | null, xml: string, invoicePort: InvoicePort, accountId?: number) {
  try {
    const { kind } = detectBankFile(xml);
    return kind === 'pain.002' ? await importPain002(tx, instanceId, userId, xml) : await importCamt(tx, instanceId, userId, xml, invoicePort, accountId);
  } catch (error) {
    if (error instanceof BankFileError) throw fileError(error.message);
    throw error;
  }
}
