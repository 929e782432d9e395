/**
 * Payments of bills and expenses (issue 14 §3, decision 021): part payments, the rest written off as
 * cash discount (Skonto, 4900 with the input tax reduced) or small difference (6953) within the
 * instance's tolerance, fees deducted (6940), and the reversal of one payment. Each payment is its
 * own balanced entry (source 'payment', the bill's uuid); a write-off is a second entry (source
 * 'bill', coded when it corrects input tax), so the received-consideration return counts the
 * payment as money paid and the discount as a correction of the booking. The bill is paid (4) when
 * its open amount is 0 and stays approved (2) while anything is open.
 */
import { PayableStatus, toBaseAmount, toFixedAmount, toMoney, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone } from '../../http/errors.js';
import {
  WRITE_OFF_ACCOUNTS,
  booksCurrency,
  chartAccountId,
  checkWriteOffTolerance,
  controlAccount,
  listLedgerAccounts,
  postJournalEntry,
  settlementPostings,
  todayInSwitzerland,
  writeOffPostings,
  type PostingInput,
} from '../accounting/accounting.service.js';
import { payableError } from './payables.errors.js';
import { alreadyPaid, billLabel, getPayable, liabilityAccountOf, reverseEntry, type PayableAnswer } from './payables.service.js';

export type WriteOffKind = 'discount' | 'difference';

/**
 * The one-time confirmation token a detail issues for its document's next payment: derived from the
 * payments recorded so far, so every detail read until the next payment offers the same token, and a
 * pay dialog sent twice (double click, two tabs on the same state, a retry) books once; after a
 * payment the next token differs. The unique index (document, token) of migration 0032 holds it.
 */
export const payTokenOf = (paymentsSoFar: number) => `pay-${paymentsSoFar + 1}`;

/** One payment of a bill (amounts in the bill's currency). */
export interface PayablePayment {
  uuid: string;
  date: string;
  /** What left the bank. */
  amount: string;
  /** What the bank charged on top of `amount` (6940 Bankspesen): ours, it settles nothing of the bill. */
  fee: string;
  writeOff: string;
  writeOffKind: WriteOffKind | null;
  bankAccount: { id: number; number: string; name: string };
  entryId: number | null;
  writeOffEntryId: number | null;
  reversed: { at: string; date: string; entryId: number | null; writeOffEntryId: number | null } | null;
  createdAt: string;
}

export interface PayablePaymentInput {
  /** What left the bank, ≥ 0, 2 decimals; default the open amount less `fee`. */
  amount?: string | null | undefined;
  /** Payment date YYYY-MM-DD; default today (Switzerland). */
  date?: string | null | undefined;
  /** The bank, cash or card account the money left; default the first bank account. */
  accountId?: number | null | undefined;
  /** What the bank charged on top (6940), ≥ 0; default 0. */
  fee?: string | null | undefined;
  /** Write the rest off (within the tolerance) as cash discount or small difference. */
  writeOff?: WriteOffKind | null | undefined;
  /** One-time confirmation token: the same token on the same bill books nothing twice. */
  token?: string | null | undefined;
  /** A bill in another currency, paid in full: what left the account in the books' currency. */
  amountBase?: string | null | undefined;
}

type PaymentRow = {
  uuid: string;
  payable_id: number;
  date_paid: string;
  amount: string;
  fee: string;
  write_off: string;
  write_off_kind: WriteOffKind | null;
  bank_account_id: number;
  entry_id: number | null;
  write_off_entry_id: number | null;
  created_at: string;
  reversed_at: string | null;
  reversal_date: string | null;
  reversal_entry_id: number | null;
  reversal_write_off_entry_id: number | null;
};

const COLUMNS = `uuid, payable_id, date_paid::text AS date_paid, amount::text AS amount, fee::text AS fee, write_off::text AS write_off, write_off_kind,
  bank_account_id, entry_id, write_off_entry_id, created_at::text AS created_at, reversed_at::text AS reversed_at, reversal_date::text AS reversal_date,
  reversal_entry_id, reversal_write_off_entry_id`;

/** Payments of the bills (reversed ones included, flagged), by bill id. */
export async function paymentsOfPayables(tx: Tx, instanceId: string, payableIds: readonly number[]): Promise<Map<number, PayablePayment[]>> {
  const out = new Map<number, PayablePayment[]>();
  if (payableIds.length === 0) return out;
  const rows = await tx.query<PaymentRow>(`SELECT ${COLUMNS} FROM payable_payment WHERE instance_id = $1 AND payable_id = ANY($2::int[]) ORDER BY date_paid, id`, [
    instanceId,
    payableIds,
  ]);
  const accounts = new Map(
    (rows.length ? await listLedgerAccounts(tx, instanceId, { ids: [...new Set(rows.map((row) => row.bank_account_id))] }) : []).map((a) => [a.id, a]),
  );
  for (const row of rows) {
    const account = accounts.get(row.bank_account_id);
    out.set(row.payable_id, [
      ...(out.get(row.payable_id) ?? []),
      {
        uuid: row.uuid,
        date: row.date_paid,
        amount: toFixedAmount(row.amount),
        fee: toFixedAmount(row.fee),
        writeOff: toFixedAmount(row.write_off),
        writeOffKind: row.write_off_kind,
        bankAccount: { id: row.bank_account_id, number: account?.number ?? '', name: account?.name ?? '' },
        entryId: row.entry_id,
        writeOffEntryId: row.write_off_entry_id,
        reversed:
          row.reversed_at === null
            ? null
            : { at: new Date(row.reversed_at).toISOString(), date: row.reversal_date!, entryId: row.reversal_entry_id, writeOffEntryId: row.reversal_write_off_entry_id },
        createdAt: new Date(row.created_at).toISOString(),
      },
    ]);
  }
  return out;
}

/** 400 on `field` unless `value` is a non-negative amount of at most 2 decimals. */
function nonNegative(value: string | null | undefined, field: string) {
  if (value == null) return toMoney(0);
  if (!/^\d{1,18}(\.\d{1,2})?$/.test(value)) throw payableError('invalid_payment', 'must be an amount of 0 or more with at most 2 decimals', { [field]: 'must be an amount of 0 or more with at most 2 decimals' });
  return toMoney(value);
}
const fieldError = (field: string, message: string) => payableError('invalid_payment', message, { [field]: message });

/**
 * Records a payment of an approved bill or expense outside a payment batch (issue 14 §3; spec §7.1
 * `/payable/pay`) in the caller's transaction:
 * - payment entry at `date`: debit the liability (2000 / 2250) `amount` and 6940 Bankspesen `fee`
 *   (what the bank charged on top: a cost of ours, not part of the bill), credit the bank account
 *   `amount + fee`;
 * - with `writeOff`, the rest of the open amount in a second entry (`writeOffPostings`: discount on
 *   4900 with the input tax reduced by the bill's own code, or difference on 6953), only within the
 *   tolerance (400 `amount` beyond it);
 * - the bill becomes paid (4) when nothing is open.
 * A bill in another currency may be paid in parts: each part settles its share of the liability at
 * the booked rate with its own exchange difference against `amountBase`; the last part clears the
 * rest to the cent; no fee or write-off on it (400 `fee` / `writeOff`).
 * 400: `amount` above the open amount or 0, `fee`, `account.id`; 409: not approved (pending: approve
 * first; in a group: the group pays it), already paid (`already_done`), lock date. The bill row is
 * locked first; the same `token` answers the bill it paid and books nothing.
 */
export async function recordPayablePayment(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  uuid: string,
  input: PayablePaymentInput,
): Promise<{ bill: PayableAnswer; payment: PayablePayment | null; repeated: boolean }> {
  const bill = await getPayable(tx, instanceId, { uuid }, true);
  if (input.token) {
    const [done] = await tx.query<{ uuid: string }>('SELECT uuid FROM payable_payment WHERE instance_id = $1 AND payable_id = $2 AND token = $3', [
      instanceId,
      bill.id,
      input.token,
    ]);
    if (done) {
      const payments = (await paymentsOfPayables(tx, instanceId, [bill.id])).get(bill.id) ?? [];
      return { bill, payment: payments.find((p) => p.uuid === done.uuid) ?? null, repeated: true };
    }
  }
  if (bill.status === PayableStatus.paid) throw alreadyPaid(bill);
  if (bill.status !== PayableStatus.approved) {
    const why =
      bill.status === PayableStatus.pending
        ? 'approve it first'
        : bill.status === PayableStatus.inTransactionGroup
          ? `it is paid through transaction group ${bill.transactionGroup?.id}`
          : 'only an approved bill can be paid';
    throw payableError('payable_not_payable', `bill ${bill.id} is ${bill.statusName}: ${why}`, { status: bill.statusName });
  }
  const open = toMoney(bill.openAmount);
  const fee = nonNegative(input.fee, 'fee');
  const amount = input.amount == null ? open : nonNegative(input.amount, 'amount');
  if (amount.gt(open)) {
    throw fieldError('amount', `${toFixedAmount(amount)} is more than the open amount ${toFixedAmount(open)} ${bill.currency} of bill ${bill.id}: an overpayment is not booked`);
  }
  if (amount.isZero() && !(input.writeOff && open.gt(0))) throw fieldError('amount', 'must be greater than 0');
  const rest = open.minus(amount);
  const base: CurrencyCode = await booksCurrency(tx, instanceId);
  const foreign = bill.currency !== base;
  if (foreign && !fee.isZero()) {
    throw fieldError('fee', `bank fees on top are booked with bills in ${base}; for a bill in ${bill.currency} give what left the bank as amountBase`);
  }
  if (foreign && input.writeOff && !rest.isZero()) {
    throw fieldError('writeOff', `cash discounts and small differences are written off on bills in ${base}; a bill in ${bill.currency} is paid in parts until nothing is open`);
  }
  // Paid in parts: the last part clears what is left of the liability in the books' currency to the cent.
  const earlier = foreign && rest.isZero() ? ((await paymentsOfPayables(tx, instanceId, [bill.id])).get(bill.id) ?? []).filter((p) => p.reversed === null) : [];
  const bookedBase = earlier.length
    ? toFixedAmount(
        toMoney(toBaseAmount(bill.amount, bill.exchangeRate)).minus(
          earlier.reduce((sum, p) => sum.plus(toMoney(toBaseAmount(toFixedAmount(toMoney(p.amount).plus(toMoney(p.writeOff))), bill.exchangeRate))), toMoney(0)),
        ),
      )
    : null;
  if (input.writeOff && !rest.isZero()) await checkWriteOffTolerance(tx, instanceId, toFixedAmount(rest), bill.amount, 'amount');
  const accountId = input.accountId ?? (await controlAccount(tx, instanceId, 'bank'));
  const [account] = await listLedgerAccounts(tx, instanceId, { ids: [accountId] });
  const liability = await liabilityAccountOf(tx, instanceId, bill);
  if (!account) throw fieldError('account.id', `ledger account ${accountId} not found`);
  // Money leaves an asset (bank, cash) or grows a liability (credit card, current account of a partner).
  if (account.type.id !== 1 && account.type.id !== 2) throw fieldError('account.id', 'pay from a bank, cash or card account (an asset or liability account)');
  if (accountId === liability) throw fieldError('account.id', 'the bill is booked on this account; choose the account the money left');
  const date = input.date ?? todayInSwitzerland();
  const label = billLabel(bill, false);
  const partial = !rest.isZero() && !input.writeOff;

  let entryId: number | null = null;
  if (!amount.isZero()) {
    let lines: PostingInput[];
    if (foreign) {
      lines = await settlementPostings(tx, instanceId, {
        kind: 'payable',
        documentAccountId: liability,
        bankAccountId: accountId,
        currency: bill.currency as CurrencyCode,
        originalAmount: toFixedAmount(amount),
        bookedRate: bill.exchangeRate,
        base,
        settledBase: input.amountBase,
        bookedBase,
        field: 'amountBase',
      });
    } else {
      if (input.amountBase != null && !toMoney(input.amountBase).eq(amount)) {
        throw fieldError('amountBase', `the document is in ${base}, the currency of the books: it is settled for its amount ${toFixedAmount(amount)}`);
      }
      lines = [{ accountId: liability, direction: 1, amount: toFixedAmount(amount) }];
      if (!fee.isZero()) {
        lines.push({ accountId: await chartAccountId(tx, instanceId, WRITE_OFF_ACCOUNTS.bankCharges, base), direction: 1, amount: toFixedAmount(fee), description: 'Bank fee' });
      }
      lines.push({ accountId, direction: -1, amount: toFixedAmount(amount.plus(fee)) });
    }
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: date,
      description: `${partial ? 'Part payment' : 'Payment'} of ${label}`.slice(0, 500),
      source: 'payment',
      sourceRef: bill.uuid,
      lines,
    });
  }
  const writeOff = input.writeOff && !rest.isZero() ? rest : toMoney(0);
  let writeOffEntryId: number | null = null;
  if (!writeOff.isZero()) {
    const what = input.writeOff === 'discount' ? 'Cash discount' : 'Small difference';
    writeOffEntryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: date,
      description: `${what} ${label}`.slice(0, 500),
      // 'bill': a correction of the booking (the return's received basis keeps it with the bill).
      source: 'bill',
      sourceRef: bill.uuid,
      lines: await writeOffPostings(tx, instanceId, {
        kind: 'payable',
        type: input.writeOff!,
        documentAccountId: liability,
        bookingEntryId: bill.bookingEntry?.id ?? null,
        amount: toFixedAmount(writeOff),
        base,
        description: what,
      }),
    });
  }
  // The payment settles `amount` of the bill (the fee is ours, on top); the write-off the rest.
  const [inserted] = await tx.query<{ uuid: string }>(
    `INSERT INTO payable_payment (instance_id, payable_id, date_paid, amount, fee, write_off, write_off_kind, bank_account_id, entry_id, write_off_entry_id, token, created_by)
     VALUES ($1, $2, $3, $4, $12, $5, $6, $7, $8, $9, $10, $11) RETURNING uuid`,
    [instanceId, bill.id, date, toFixedAmount(amount), toFixedAmount(writeOff), writeOff.isZero() ? null : input.writeOff, accountId, entryId, writeOffEntryId, input.token || null, userId, toFixedAmount(fee)],
  );
  if (open.minus(amount).minus(writeOff).isZero()) {
    // Conditional on the state read under the lock: a bill is paid once.
    const changed = await tx.query('UPDATE payable SET status = 4, payment_entry_id = $3, payment_token = $4 WHERE instance_id = $1 AND id = $2 AND status = 2 RETURNING id', [
      instanceId,
      bill.id,
      entryId ?? writeOffEntryId,
      input.token || null,
    ]);
    if (!changed.length) throw alreadyPaid(bill);
  }
  const answer = await getPayable(tx, instanceId, { uuid });
  const payments = (await paymentsOfPayables(tx, instanceId, [bill.id])).get(bill.id) ?? [];
  return { bill: answer, payment: payments.find((p) => p.uuid === inserted!.uuid) ?? null, repeated: false };
}

/**
 * Reverses one payment of a bill (issue 14 §3): counter-entries of its payment and write-off entries
 * at `date` (default today; 400 `date` before the payment), the payment kept and marked reversed; a
 * paid bill is approved (open) again and leaves its transaction group. 404 unknown payment; 409
 * `already_done` when reversed already (the bill row, then the payment row, are locked first); 409
 * on or before the lock date.
 */
export async function reversePayablePayment(tx: Tx, instanceId: string, userId: string | null, paymentUuid: string, date?: string | null): Promise<PayableAnswer> {
  const [head] = await tx.query<{ payable_id: number }>('SELECT payable_id FROM payable_payment WHERE instance_id = $1 AND uuid = $2', [instanceId, paymentUuid]);
  if (!head) throw payableError('payment_not_found', `payment ${paymentUuid} not found`, { uuid: 'not found' });
  const bill = await getPayable(tx, instanceId, { id: head.payable_id }, true);
  const [payment] = await tx.query<PaymentRow>(`SELECT ${COLUMNS} FROM payable_payment WHERE instance_id = $1 AND uuid = $2 FOR UPDATE`, [instanceId, paymentUuid]);
  if (payment!.reversed_at !== null) throw alreadyDone(`the payment of ${payment!.date_paid} is already reversed`, { uuid: 'already reversed' });
  const on = date ?? todayInSwitzerland();
  if (on < payment!.date_paid) throw fieldError('date', `the reversal date must be on or after the payment date (${payment!.date_paid})`);
  const label = `${bill.isExpense ? 'Expense' : 'Bill'} ${bill.id}`;
  const reversalEntryId = payment!.entry_id === null ? null : await reverseEntry(tx, instanceId, userId, payment!.entry_id, on, `${label} payment reversed`);
  const reversalWriteOffId = payment!.write_off_entry_id === null ? null : await reverseEntry(tx, instanceId, userId, payment!.write_off_entry_id, on, `${label} write-off reversed`);
  await tx.query(
    `UPDATE payable_payment SET reversed_at = now(), reversed_by = $3, reversal_date = $4, reversal_entry_id = $5, reversal_write_off_entry_id = $6
      WHERE instance_id = $1 AND uuid = $2 AND reversed_at IS NULL`,
    [instanceId, paymentUuid, userId, on, reversalEntryId, reversalWriteOffId],
  );
  if (bill.status === PayableStatus.paid) {
    await tx.query(
      'UPDATE payable SET status = 2, payment_entry_id = NULL, payment_token = NULL, transaction_group_id = NULL, execution_date = NULL WHERE instance_id = $1 AND id = $2',
      [instanceId, bill.id],
    );
  }
  return getPayable(tx, instanceId, { id: bill.id });
}

/** The bill of a payment entry or its reversal (history, journal links). */
export async function payableOfPaymentEntry(tx: Tx, instanceId: string, entryId: number): Promise<number | null> {
  const [row] = await tx.query<{ payable_id: number }>(
    `SELECT payable_id FROM payable_payment WHERE instance_id = $1
        AND $2 IN (entry_id, write_off_entry_id, reversal_entry_id, reversal_write_off_entry_id) LIMIT 1`,
    [instanceId, entryId],
  );
  return row?.payable_id ?? null;
}
