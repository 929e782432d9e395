/**
 * What banking asks of bills and transaction groups (issue 11 §3: banking changes bills only
 * through payables' functions; re-exported by the facade payables.service.ts). Statement matches
 * (camt.053/054, automatic and manual) pay bills here, and pain.002 reports set the bank's answer on
 * a group and its bills. Every change takes the group's row lock before its bills' (issue 11 §1):
 * `lockBillAndGroup`, `lockGroupOfMessage` then `lockGroupBills`.
 */
import { Currency, currencyCodeById, PayableStatus, TransactionGroupStatus, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { payableError } from './payables.errors.js';
import { booksCurrency, firstOpenDate, getJournalEntry, reverseJournalEntry } from '../accounting/accounting.service.js';
import { companyNames, paymentProfileIbansById } from '../companies/companies.service.js';
import { alreadyPaid, bookPayment, getPayable, type PayableAnswer } from './payables.service.js';

/**
 * The uuid an end-to-end id or message id of our pain.001 names: the bill's or group's uuid without
 * hyphens (pain001.ts), case ignored; undefined for any other text. Compared as a uuid, so the
 * lookup uses the (instance_id, uuid) unique index instead of scanning every row.
 */
function uuidOfPaymentId(id: string): string | undefined {
  const hex = id.toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the bill in a transaction group (3) or paid (4) whose end-to-end id is `endToEndId`, if any. Not locked. */
export async function billIdOfEndToEndId(tx: Tx, instanceId: string, endToEndId: string): Promise<number | undefined> {
  const uuid = uuidOfPaymentId(endToEndId);
  if (uuid === undefined) return undefined;
  const [row] = await tx.query<{ id: number }>('SELECT id FROM payable WHERE instance_id = $1 AND uuid = $2::uuid AND status IN (3, 4)', [instanceId, uuid]);
  return row?.id;
}

/**
 * Of `endToEndIds`, those that name a bill in a transaction group (3) or paid (4), lower case: one
 * indexed query for a whole statement, so only these go through `billIdOfEndToEndId` (issue 14 §4).
 */
export async function endToEndIdsOfBills(tx: Tx, instanceId: string, endToEndIds: readonly string[]): Promise<Set<string>> {
  const uuids = [...new Set(endToEndIds.map(uuidOfPaymentId).filter((uuid): uuid is string => uuid !== undefined))];
  if (!uuids.length) return new Set();
  const rows = await tx.query<{ e2e: string }>(
    `SELECT replace(uuid::text, '-', '') AS e2e FROM payable WHERE instance_id = $1 AND uuid = ANY($2::uuid[]) AND status IN (3, 4)`,
    [instanceId, uuids],
  );
  return new Set(rows.map((row) => row.e2e));
}

/** A bill a payment out may settle, with what the statement's creditor is compared to. */
export interface BillToMatch {
  id: number;
  /** The IBAN of its payment profile, upper case without spaces, else null. */
  iban: string | null;
  companyName: string | null;
}

/**
 * Bills of exactly `amount` in `currency` that a payment out may settle automatically: approved
 * (2), or in a transaction group the bank has (initiated 4). By id.
 */
export async function billsToMatch(tx: Tx, instanceId: string, amount: string, currency: CurrencyCode): Promise<BillToMatch[]> {
  const rows = await tx.query<{ id: number; payment_profile_id: number | null; company_uuid: string | null }>(
    `SELECT p.id, p.payment_profile_id, p.company_uuid
       FROM payable p
       LEFT JOIN transaction_group g ON g.instance_id = p.instance_id AND g.id = p.transaction_group_id
      WHERE p.instance_id = $1 AND (p.status = 2 OR (p.status = 3 AND g.status = 4)) AND p.amount = $2 AND p.currency_id = $3
      ORDER BY p.id`,
    [instanceId, amount, Currency[currency]],
  );
  const ibans = await paymentProfileIbansById(tx, instanceId, rows.flatMap((row) => (row.payment_profile_id === null ? [] : [row.payment_profile_id])));
  const names = await companyNames(tx, instanceId, rows.flatMap((row) => (row.company_uuid === null ? [] : [row.company_uuid])));
  return rows.map((row) => ({
    id: row.id,
    iban: (row.payment_profile_id !== null && ibans.get(row.payment_profile_id)) || null,
    companyName: (row.company_uuid !== null && names.get(row.company_uuid)) || null,
  }));
}

/** An open bill offered for a manual match. */
export interface MatchableBill {
  uuid: string;
  id: number;
  date: string;
  /** The bill's amount in its currency, as stored. */
  amount: string;
  currency: CurrencyCode;
  /** amount × exchange rate: the liability in the books' currency, 2 decimals. */
  amountBase: string;
  companyName: string | null;
  description: string;
}

/** Open bills a payment out could settle: approved, or in a pending or initiated transaction group; by date, then id. */
export async function openBillsToMatch(tx: Tx, instanceId: string): Promise<MatchableBill[]> {
  const rows = await tx.query<{ uuid: string; id: number; date: string; amount: string; currency_id: number; amount_base: string; company_uuid: string | null; description: string }>(
    `SELECT uuid, id, date::text AS date, amount::text AS amount, currency_id, round(amount * exchange_rate, 2)::text AS amount_base, company_uuid, description
       FROM payable WHERE instance_id = $1 AND status IN (2, 3) ORDER BY date, id`,
    [instanceId],
  );
  const names = await companyNames(tx, instanceId, rows.flatMap((row) => (row.company_uuid === null ? [] : [row.company_uuid])));
  return rows.map((row) => ({
    uuid: row.uuid,
    id: row.id,
    date: row.date,
    amount: row.amount,
    currency: currencyCodeById(row.currency_id) ?? 'CHF',
    amountBase: row.amount_base,
    companyName: row.company_uuid === null ? null : (names.get(row.company_uuid) ?? null),
    description: row.description,
  }));
}

/**
 * A group whose bills are all paid (none left in status 3) becomes paid at `date`, bank status
 * paid. Called after a statement or a manual match paid one of its bills.
 */
export async function completeGroupIfPaid(tx: Tx, instanceId: string, groupId: number, date: string): Promise<void> {
  await tx.query(
    `UPDATE transaction_group g SET status = 2, bank_status = 2, paid_date = $3
      WHERE instance_id = $1 AND id = $2 AND status IN (1, 4)
        AND NOT EXISTS (SELECT 1 FROM payable p WHERE p.instance_id = g.instance_id AND p.transaction_group_id = g.id AND p.status = 3)`,
    [instanceId, groupId, date],
  );
}

/**
 * Locks bill `billId` and, first, its transaction group: every path that changes both takes the
 * group before its bills (group status change, pain.002, delete), so two of them wait for each
 * other instead of deadlocking (issue 11 §1). Returns the bill as read under the lock; 404 unknown.
 */
export async function lockBillAndGroup(tx: Tx, instanceId: string, billId: number): Promise<PayableAnswer> {
  for (;;) {
    const [current] = await tx.query<{ transaction_group_id: number | null }>('SELECT transaction_group_id FROM payable WHERE instance_id = $1 AND id = $2', [
      instanceId,
      billId,
    ]);
    if (!current) throw payableError('payable_not_found', `bill ${billId} not found`);
    if (current.transaction_group_id !== null) {
      await tx.query('SELECT 1 FROM transaction_group WHERE instance_id = $1 AND id = $2 FOR UPDATE', [instanceId, current.transaction_group_id]);
    }
    const bill = await getPayable(tx, instanceId, { id: billId }, true);
    // Moved into or out of a group between the two reads: lock the group it is in now.
    if ((bill.transactionGroup?.id ?? null) === current.transaction_group_id) return bill;
  }
}

/**
 * Pays one bill from a bank account as a statement match does (automatic or manual): the bill must
 * be approved (2) or in a transaction group (3); its payment is booked at `date` (debit its
 * liability / credit `bankAccountId`) and its group becomes paid once all its bills are. `bank` is
 * what the statement shows: when a bill in another currency left the account in the books'
 * currency (the bank converted it), that amount is booked with the realized exchange difference.
 * 409 for another status (`already_done` when paid) or on or before the lock date; 400 `bankTransaction` for an implausible
 * conversion (settlement.service.ts). Returns the payment entry id.
 */
export async function settleBill(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  billId: number,
  bankAccountId: number,
  date: string,
  bank?: { amount: string; currency: string },
): Promise<number> {
  const bill = await lockBillAndGroup(tx, instanceId, billId);
  if (bill.status === PayableStatus.paid) throw alreadyPaid(bill);
  if (bill.status !== PayableStatus.approved && bill.status !== PayableStatus.inTransactionGroup) {
    throw payableError('payable_not_payable', `bill ${bill.id} is ${bill.statusName}: only an approved bill or one in a transaction group can be paid`, { status: bill.statusName });
  }
  let settledBase: string | undefined;
  if (bank && bank.currency !== bill.currency && bank.currency === (await booksCurrency(tx, instanceId))) settledBase = bank.amount;
  const entryId = await bookPayment(tx, instanceId, userId, bill, bankAccountId, date, settledBase, 'bankTransaction');
  if (bill.transactionGroup) await completeGroupIfPaid(tx, instanceId, bill.transactionGroup.id, date);
  return entryId;
}

/** A transaction group as a pain.002 finds it. */
export interface ReportedGroup {
  id: number;
  status: number;
  bankStatus: number;
}

/**
 * The transaction group whose pain.001 had message id `messageId` (its uuid without hyphens),
 * locked until the end of the transaction before any of its bills; undefined when there is none.
 */
export async function lockGroupOfMessage(tx: Tx, instanceId: string, messageId: string): Promise<ReportedGroup | undefined> {
  const uuid = uuidOfPaymentId(messageId);
  if (uuid === undefined) return undefined;
  const [row] = await tx.query<{ id: number; status: number; bank_status: number }>(
    'SELECT id, status, bank_status FROM transaction_group WHERE instance_id = $1 AND uuid = $2::uuid FOR UPDATE',
    [instanceId, uuid],
  );
  return row && { id: row.id, status: row.status, bankStatus: row.bank_status };
}

/** A bill of a group, as a pain.002 names it. */
export interface GroupBill {
  id: number;
  /** The end-to-end id our pain.001 gave it: its uuid without hyphens. */
  endToEndId: string;
  /** Its requested execution date (else the group's), YYYY-MM-DD: the pain.001 block it is in. */
  executionDate: string;
  paymentEntryId: number | null;
}

/** The bills of group `groupId` by id, locked (take the group's lock first: `lockGroupOfMessage`). */
export async function lockGroupBills(tx: Tx, instanceId: string, groupId: number): Promise<GroupBill[]> {
  const rows = await tx.query<{ id: number; uuid: string; payment_entry_id: number | null; date: string }>(
    `SELECT p.id, p.uuid, p.payment_entry_id, coalesce(p.execution_date, g.execution_date)::text AS date
       FROM payable p JOIN transaction_group g ON g.instance_id = p.instance_id AND g.id = p.transaction_group_id
      WHERE p.instance_id = $1 AND p.transaction_group_id = $2 ORDER BY p.id FOR UPDATE OF p`,
    [instanceId, groupId],
  );
  return rows.map((row) => ({ id: row.id, endToEndId: row.uuid.replace(/-/g, ''), executionDate: row.date, paymentEntryId: row.payment_entry_id }));
}

/**
 * The bank refused bill `bill` (pain.002 RJCT): its payment posting, if any, is reversed at the
 * payment's own date, so no balance ever shows the refused payment (on the first open day when that
 * period is locked since), and the bill is reopened: approved, out of its group, bank status
 * rejected with `reason` (200 characters kept).
 */
export async function rejectBankPayment(tx: Tx, instanceId: string, userId: string | null, bill: GroupBill, reason: string | null): Promise<void> {
  if (bill.paymentEntryId !== null) {
    const payment = await getJournalEntry(tx, instanceId, bill.paymentEntryId);
    const date = await firstOpenDate(tx, instanceId, payment.dateLedger);
    const reversalId = await reverseJournalEntry(tx, instanceId, userId, bill.paymentEntryId, {
      date,
      description: `Bill ${bill.id} rejected by the bank (${reason ?? 'RJCT'}): reversal of entry ${bill.paymentEntryId}`,
      source: 'bill',
    });
    // The payment row of that entry is reversed with it (issue 14 §3): the bill is open again.
    await tx.query(
      `UPDATE payable_payment SET reversed_at = now(), reversed_by = $4, reversal_date = $5, reversal_entry_id = $6
        WHERE instance_id = $1 AND payable_id = $2 AND entry_id = $3 AND reversed_at IS NULL`,
      [instanceId, bill.id, bill.paymentEntryId, userId, date, reversalId],
    );
  }
  await tx.query(
    `UPDATE payable SET status = 2, transaction_group_id = NULL, execution_date = NULL, payment_entry_id = NULL, bank_tx_status = 'rejected', bank_reason = $3
      WHERE instance_id = $1 AND id = $2`,
    [instanceId, bill.id, reason?.slice(0, 200) ?? null],
  );
}

/** The bank's answer for one bill short of a rejection: accepted (clears an earlier reason) or still pending. */
export async function setBankTransactionStatus(tx: Tx, instanceId: string, billId: number, status: 'accepted' | 'pending'): Promise<void> {
  if (status === 'accepted') {
    await tx.query(`UPDATE payable SET bank_tx_status = 'accepted', bank_reason = NULL WHERE instance_id = $1 AND id = $2`, [instanceId, billId]);
  } else {
    await tx.query(`UPDATE payable SET bank_tx_status = 'pending' WHERE instance_id = $1 AND id = $2`, [instanceId, billId]);
  }
}

/**
 * Records a pain.002's group bank status (BankPaymentStatus) on locked group `group`: the bank has
 * the file, so a pending group is initiated; one whose bills were all rejected is denied, even a
 * paid one (its payments were all reversed by `rejectBankPayment`). Answers the group's new state.
 */
export async function recordGroupBankStatus(tx: Tx, instanceId: string, group: ReportedGroup, bankStatus: number, allRejected: boolean): Promise<ReportedGroup> {
  let status = group.status === TransactionGroupStatus.pending ? TransactionGroupStatus.initiated : group.status;
  if (allRejected) status = TransactionGroupStatus.denied;
  const [row] = await tx.query<{ status: number; bank_status: number }>(
    `UPDATE transaction_group SET bank_status = $3, status = $4, paid_date = CASE WHEN $4::smallint = 3 THEN NULL ELSE paid_date END
      WHERE instance_id = $1 AND id = $2 RETURNING status, bank_status`,
    [instanceId, group.id, bankStatus, status],
  );
  return { id: group.id, status: row!.status, bankStatus: row!.bank_status };
}

/**
 * The bank reversed the payment of paid bill `billId` (camt RvslInd, issue 14 §3): its payment
 * posting is reversed at `date` (the reversal's booking date, or the first open day after a lock),
 * and the bill is approved again, out of its group, bank status rejected with `reason`. Bill (and
 * its group) locked first. Answers the reversal entry's id, or null when the bill is not paid (or
 * was paid without a posting): nothing changes then.
 */
export async function reopenBillPayment(tx: Tx, instanceId: string, userId: string | null, billId: number, date: string, reason: string): Promise<number | null> {
  const bill = await lockBillAndGroup(tx, instanceId, billId);
  const [row] = await tx.query<{ payment_entry_id: number | null }>('SELECT payment_entry_id FROM payable WHERE instance_id = $1 AND id = $2', [instanceId, billId]);
  if (bill.status !== PayableStatus.paid || !row?.payment_entry_id) return null;
  const on = await firstOpenDate(tx, instanceId, date);
  const entryId = await reverseJournalEntry(tx, instanceId, userId, row.payment_entry_id, {
    date: on,
    description: `Bill ${bill.id}: ${reason}: reversal of entry ${row.payment_entry_id}`,
    source: 'bill',
  });
  // The payment row of that entry is reversed with it (decision 021): the bill is open again.
  await tx.query(
    `UPDATE payable_payment SET reversed_at = now(), reversed_by = $4, reversal_date = $5, reversal_entry_id = $6
      WHERE instance_id = $1 AND payable_id = $2 AND entry_id = $3 AND reversed_at IS NULL`,
    [instanceId, bill.id, row.payment_entry_id, userId, on, entryId],
  );
  await tx.query(
    `UPDATE payable SET status = 2, transaction_group_id = NULL, execution_date = NULL, payment_entry_id = NULL, bank_tx_status = 'rejected', bank_reason = $3
      WHERE instance_id = $1 AND id = $2`,
    [instanceId, bill.id, reason.slice(0, 200)],
  );
  return entryId;
}
