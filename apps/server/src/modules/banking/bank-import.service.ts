/**
 * Bank file imports (issue #5 §4), each in ONE transaction so a crash leaves no half import:
 * - camt.053 / camt.054: every booked entry (or each of its transaction details) becomes a
 *   bank_transaction of the bank ledger account whose IBAN the file names. The unique key
 *   (account, bank reference) makes a re-import add nothing and book nothing twice. Debits whose
 *   end-to-end id is a bill in a transaction group book that bill's payment (debit payables /
 *   credit bank at the booking date); a group whose bills are all paid becomes paid. Credits are
 *   offered to the invoice matcher (extension point below).
 * - pain.002: the group's bank payment status and, per transaction, accepted/rejected with the
 *   reason code; a rejected bill is reopened (approved, out of the group) and its payment posting,
 *   if any, reversed.
 */
import { createHash } from 'node:crypto';
import { BankPaymentStatus, normalizeIban, PayableStatus, TransactionGroupStatus } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { badRequest } from '../../http/errors.js';
import { getPayable, reverseEntry, today } from '../payables/payables.service.js';
import { bookPayment } from '../payables/transaction-groups.service.js';
import { BankFileError, detectBankFile, parseCamt, parsePain002, type CamtEntry, type CamtTransaction } from './bank-files.js';

export type CamtImportResult = {
  kind: 'camt.053' | 'camt.054';
  file: { id: number; messageId: string } | null;
  duplicateFile: boolean;
  imported: number;
  duplicates: number;
  matched: number;
  transactions: { id: number; bookingDate: string; direction: number; amount: string; currency: string; matched: boolean; payable: { id: number } | null }[];
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

const fileError = (message: string) => badRequest(message, { file: message });

async function recordFile(tx: Tx, instanceId: string, userId: string | null, kind: string, messageId: string, xml: string) {
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO bank_file (instance_id, id, kind, message_id, sha256, imported_by)
     SELECT $1, next_ids($1, 'bank_file'), $2, $3, $4, $5
      WHERE NOT EXISTS (SELECT 1 FROM bank_file WHERE instance_id = $1 AND sha256 = $4)
     RETURNING id`,
    [instanceId, kind, messageId.slice(0, 200), sha256(xml), userId],
  );
  return row?.id;
}

/** The bank ledger account of an IBAN: an own-company payment profile with a ledger account. */
async function accountOfIban(tx: Tx, instanceId: string, iban: string): Promise<number | undefined> {
  const [row] = await tx.query<{ account_id: number }>(
    `SELECT pp.account_id FROM payment_profile pp JOIN instance i ON i.id = pp.instance_id AND i.own_company_uuid = pp.company_uuid
      WHERE pp.instance_id = $1 AND replace(upper(pp.iban), ' ', '') = $2 AND pp.account_id IS NOT NULL ORDER BY pp.id LIMIT 1`,
    [instanceId, normalizeIban(iban)],
  );
  return row?.account_id;
}

/**
 * Extension point for the invoices module (issue #4b): given a credit, answer the invoice it pays
 * (by QR or creditor reference, then amount and debtor name) after booking it, or null. Until the
 * invoice tables exist every credit stays unmatched, listed for manual matching.
 */
export type InvoiceMatcher = (tx: Tx, instanceId: string, credit: CamtTransaction & { bookingDate: string; accountId: number }) => Promise<{ invoiceUuid: string; entryId: number } | null>;
let invoiceMatcher: InvoiceMatcher = async () => null;
export function setInvoiceMatcher(matcher: InvoiceMatcher): void {
  invoiceMatcher = matcher;
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
      unstructured: entry.additionalInfo,
    },
  ];
}

export async function importCamt(tx: Tx, instanceId: string, userId: string | null, xml: string, accountId?: number): Promise<CamtImportResult> {
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
  const touchedGroups = new Map<number, string>();
  for (const record of doc.records) {
    const account = (record.account && (await accountOfIban(tx, instanceId, record.account))) || accountId;
    if (account === undefined) throw fileError(`no bank ledger account with IBAN ${record.account ?? '?'}: choose the account (?account=id)`);
    if (accountId !== undefined && account !== accountId) throw fileError(`the file is for ${record.account}, not for the chosen account`);
    const known = await tx.query('SELECT 1 FROM ledger_account WHERE instance_id = $1 AND id = $2', [instanceId, account]);
    if (!known.length) throw badRequest(`ledger account ${account} not found`, { account: `ledger account ${account} not found` });
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
                                         currency, reference, end_to_end_id, counterparty, description)
           VALUES ($1, next_ids($1, 'bank_transaction'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (instance_id, account_id, dedup_key) DO NOTHING RETURNING id`,
          [instanceId, account, fileId, key.slice(0, 300), bookingDate, entry.valueDate, unit.direction, unit.amount, unit.currency || 'CHF',
            unit.reference, unit.endToEndId, unit.counterparty, unit.unstructured ?? entry.additionalInfo],
        );
        if (!row) {
          result.duplicates += 1;
          continue;
        }
        result.imported += 1;
        let payableId: number | null = null;
        if (unit.direction === -1 && unit.endToEndId) {
          const [bill] = await tx.query<{ id: number; status: number; transaction_group_id: number | null }>(
            `SELECT id, status, transaction_group_id FROM payable WHERE instance_id = $1 AND replace(uuid::text, '-', '') = lower($2)
               AND status IN (3, 4) FOR UPDATE`,
            [instanceId, unit.endToEndId],
          );
          if (bill) {
            payableId = bill.id;
            let entryId: number | null = null;
            if (bill.status === PayableStatus.inTransactionGroup) {
              const answer = await getPayable(tx, instanceId, { id: bill.id });
              entryId = await bookPayment(tx, instanceId, userId, answer, account, bookingDate);
              if (bill.transaction_group_id !== null) touchedGroups.set(bill.transaction_group_id, bookingDate);
            }
            await tx.query('UPDATE bank_transaction SET matched_payable_id = $3, entry_id = $4 WHERE instance_id = $1 AND id = $2', [instanceId, row.id, bill.id, entryId]);
          }
        } else if (unit.direction === 1) {
          const invoice = await invoiceMatcher(tx, instanceId, { ...unit, bookingDate, accountId: account });
          if (invoice) {
            await tx.query('UPDATE bank_transaction SET matched_invoice_uuid = $3, entry_id = $4 WHERE instance_id = $1 AND id = $2', [instanceId, row.id, invoice.invoiceUuid, invoice.entryId]);
            result.matched += 1;
          }
        }
        if (payableId !== null) result.matched += 1;
        result.transactions.push({
          id: row.id,
          bookingDate,
          direction: unit.direction,
          amount: unit.amount,
          currency: unit.currency,
          matched: payableId !== null,
          payable: payableId === null ? null : { id: payableId },
        });
      }
    }
  }
  // A group whose bills the bank has all paid is paid.
  for (const [groupId, date] of touchedGroups) {
    await tx.query(
      `UPDATE transaction_group g SET status = 2, bank_status = 2, paid_date = $3
        WHERE instance_id = $1 AND id = $2 AND status IN (1, 4)
          AND NOT EXISTS (SELECT 1 FROM payable p WHERE p.instance_id = g.instance_id AND p.transaction_group_id = g.id AND p.status = 3)`,
      [instanceId, groupId, date],
    );
  }
  return result;
}

const ACCEPTED = new Set(['ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACCC']);

/** Group bank status from a pain.002 (spec §4 "Bank payment status"). */
function bankStatusOf(groupStatus: string | null, accepted: number, rejected: number): number {
  if (groupStatus === 'RJCT' || (rejected > 0 && accepted === 0)) return BankPaymentStatus.pain002Rjctd;
  if (groupStatus === 'PART' || (rejected > 0 && accepted > 0)) return BankPaymentStatus.pain002Part;
  if (groupStatus === 'ACSC') return BankPaymentStatus.paid;
  if (groupStatus && ACCEPTED.has(groupStatus)) return BankPaymentStatus.pain002Accp;
  if (accepted > 0) return BankPaymentStatus.pain002Accp;
  return BankPaymentStatus.pending;
}

export async function importPain002(tx: Tx, instanceId: string, userId: string | null, xml: string): Promise<Pain002ImportResult> {
  const doc = parsePain002(xml);
  const [group] = await tx.query<{ id: number; status: number }>(
    `SELECT id, status FROM transaction_group WHERE instance_id = $1 AND replace(uuid::text, '-', '') = lower($2) FOR UPDATE`,
    [instanceId, doc.originalMessageId],
  );
  if (!group) throw fileError(`no transaction group sent with message id ${doc.originalMessageId}`);
  const fileId = await recordFile(tx, instanceId, userId, 'pain.002', doc.messageId, xml);
  const bills = await tx.query<{ id: number; uuid: string; status: number; payment_entry_id: number | null }>(
    `SELECT id, uuid, status, payment_entry_id FROM payable WHERE instance_id = $1 AND transaction_group_id = $2 FOR UPDATE`,
    [instanceId, group.id],
  );
  const byE2e = new Map(bills.map((bill) => [bill.uuid.replace(/-/g, ''), bill]));
  // A report without transaction lines speaks for the whole group.
  const lines = doc.transactions.length
    ? doc.transactions
    : bills.map((bill) => ({ originalEndToEndId: bill.uuid.replace(/-/g, ''), status: doc.groupStatus, reasonCode: doc.groupReason, reasonText: null }));
  let accepted = 0;
  let rejected = 0;
  const reopened: { id: number; reason: string | null }[] = [];
  if (fileId !== undefined) {
    for (const line of lines) {
      const bill = line.originalEndToEndId ? byE2e.get(line.originalEndToEndId.toLowerCase()) : undefined;
      const status = line.status ?? doc.groupStatus;
      if (!bill) continue;
      if (status === 'RJCT') {
        rejected += 1;
        const reason = [line.reasonCode, line.reasonText].filter(Boolean).join(' ') || null;
        if (bill.payment_entry_id !== null) {
          await reverseEntry(tx, instanceId, userId, bill.payment_entry_id, today(), `Bill ${bill.id} rejected by the bank (${line.reasonCode ?? 'RJCT'})`);
        }
        await tx.query(
          `UPDATE payable SET status = 2, transaction_group_id = NULL, payment_entry_id = NULL, bank_tx_status = 'rejected', bank_reason = $3
            WHERE instance_id = $1 AND id = $2`,
          [instanceId, bill.id, reason?.slice(0, 200) ?? null],
        );
        reopened.push({ id: bill.id, reason });
      } else if (status && ACCEPTED.has(status)) {
        accepted += 1;
        await tx.query(`UPDATE payable SET bank_tx_status = 'accepted', bank_reason = NULL WHERE instance_id = $1 AND id = $2`, [instanceId, bill.id]);
      } else {
        await tx.query(`UPDATE payable SET bank_tx_status = 'pending' WHERE instance_id = $1 AND id = $2`, [instanceId, bill.id]);
      }
    }
    const bankStatus = bankStatusOf(doc.groupStatus, accepted, rejected);
    const remaining = bills.length - reopened.length;
    // The bank has the file: a pending group is initiated; one left without bills is denied.
    let status = group.status === TransactionGroupStatus.pending ? TransactionGroupStatus.initiated : group.status;
    if (remaining === 0 && status !== TransactionGroupStatus.paid) status = TransactionGroupStatus.denied;
    await tx.query('UPDATE transaction_group SET bank_status = $3, status = $4 WHERE instance_id = $1 AND id = $2', [instanceId, group.id, bankStatus, status]);
  }
  const [after] = await tx.query<{ status: number; bank_status: number }>('SELECT status, bank_status FROM transaction_group WHERE instance_id = $1 AND id = $2', [instanceId, group.id]);
  return {
    kind: 'pain.002',
    file: fileId === undefined ? null : { id: fileId, messageId: doc.messageId },
    duplicateFile: fileId === undefined,
    transactionGroup: { id: group.id, status: after!.status, bankStatus: after!.bank_status },
    accepted,
    rejected,
    reopened,
  };
}

/** Imports any supported bank file; 400 on `file` for an unknown or broken one. */
export async function importBankFile(tx: Tx, instanceId: string, userId: string | null, xml: string, accountId?: number) {
  try {
    const { kind } = detectBankFile(xml);
    return kind === 'pain.002' ? await importPain002(tx, instanceId, userId, xml) : await importCamt(tx, instanceId, userId, xml, accountId);
  } catch (error) {
    if (error instanceof BankFileError) throw fileError(error.message);
    throw error;
  }
}
