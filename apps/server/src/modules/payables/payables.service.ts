/**
 * Bills and expenses (spec §3 "Payable", issue #5 §1) and their bookings.
 *
 * Lifecycle (PayableStatus): pending 1 (draft, editable, deletable) → approved 2 (booked: debit
 * expense + input VAT 1170 / credit payables 2000 at the bill's date) → in a transaction group 3 →
 * paid 4 (payment booked: debit payables / credit bank). Pending or approved → cancelled 5 (an
 * approved bill's booking is reversed by a counter-entry at the cancellation date). Every posting
 * goes through the accounting module's postJournalEntry, so balance and lock date always apply.
 */
import {
  BillType,
  Currency,
  currencyCodeById,
  isQrIban,
  isValidCreditorReference,
  isValidQrReference,
  PayableStatus,
  toFixedAmount,
  toMoney,
  type CurrencyCode,
  type PayableStatusId,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { badRequest, conflict, fieldError, notFound } from '../../http/errors.js';
import { getJournalEntry, postJournalEntry, type PostingInput } from '../accounting/journal-entry.service.js';

export const payableStatusName: Record<number, string> = {
  [PayableStatus.pending]: 'pending',
  [PayableStatus.approved]: 'approved',
  [PayableStatus.inTransactionGroup]: 'inTransactionGroup',
  [PayableStatus.paid]: 'paid',
  [PayableStatus.cancelled]: 'cancelled',
};

/** Open bills ('Open Bills', filterStatus true): not yet paid nor cancelled. */
export const OPEN_STATUSES: readonly number[] = [PayableStatus.pending, PayableStatus.approved, PayableStatus.inTransactionGroup];

export interface PayableInput {
  type: 0 | 1;
  companyUuid: string | null;
  paymentProfileId: number | null;
  date: string;
  dueDate: string | null;
  /** Gross amount in `currency`, 2 decimals, > 0. */
  amount: string;
  /** Input VAT included in `amount`. */
  vatAmount: string;
  currency: CurrencyCode | null;
  /** Instance-currency units per unit of `currency`; required for a foreign currency. */
  exchangeRate: string | null;
  expenseAccountId: number | null;
  referenceNumber: string | null;
  message: string | null;
  description: string;
}

export interface PayableAnswer {
  id: number;
  uuid: string;
  type: number;
  isExpense: boolean;
  date: string;
  dueDate: string | null;
  amount: string;
  vatAmount: string;
  currency: string;
  exchangeRate: string;
  company: { uuid: string; name: string } | null;
  companyFinance: { id: number; iban: string | null; bic: string | null; type: number } | null;
  expenseAccount: { id: number; number: string; name: string } | null;
  referenceNumber: string | null;
  message: string | null;
  description: string;
  status: number;
  statusName: string;
  transactionGroup: { id: number; status: number } | null;
  bankTxStatus: string | null;
  bankReason: string | null;
  bookingEntry: { id: number } | null;
  paymentEntry: { id: number } | null;
}

interface PayableRow {
  id: number;
  uuid: string;
  type_id: number;
  date: string;
  due_date: string | null;
  amount: string;
  vat_amount: string;
  currency_id: number;
  exchange_rate: string;
  company_uuid: string | null;
  company_name: string | null;
  payment_profile_id: number | null;
  pp_iban: string | null;
  pp_bic: string | null;
  pp_type: number | null;
  expense_account_id: number | null;
  account_number: string | null;
  account_name: string | null;
  reference_number: string | null;
  message: string | null;
  description: string;
  status: number;
  transaction_group_id: number | null;
  group_status: number | null;
  bank_tx_status: string | null;
  bank_reason: string | null;
  booking_entry_id: number | null;
  payment_entry_id: number | null;
  [key: string]: unknown;
}

export const PAYABLE_SELECT = `
  SELECT p.id, p.uuid, p.type_id, p.date, p.due_date, p.amount, p.vat_amount, p.currency_id, p.exchange_rate,
         p.company_uuid, c.name AS company_name, p.payment_profile_id, pp.iban AS pp_iban, pp.bic AS pp_bic, pp.type_id AS pp_type,
         p.expense_account_id, a.number AS account_number, a.name AS account_name, p.reference_number, p.message,
         p.description, p.status, p.transaction_group_id, g.status AS group_status, p.bank_tx_status, p.bank_reason,
         p.booking_entry_id, p.payment_entry_id
    FROM payable p
    LEFT JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid
    LEFT JOIN payment_profile pp ON pp.instance_id = p.instance_id AND pp.id = p.payment_profile_id
    LEFT JOIN ledger_account a ON a.instance_id = p.instance_id AND a.id = p.expense_account_id
    LEFT JOIN transaction_group g ON g.instance_id = p.instance_id AND g.id = p.transaction_group_id`;

export function toPayableAnswer(row: PayableRow): PayableAnswer {
  return {
    id: row.id,
    uuid: row.uuid,
    type: row.type_id,
    isExpense: row.type_id === BillType.expense,
    date: row.date,
    dueDate: row.due_date,
    amount: row.amount,
    vatAmount: row.vat_amount,
    currency: currencyCodeById(row.currency_id) ?? 'CHF',
    exchangeRate: toMoney(row.exchange_rate).toFixed(),
    company: row.company_uuid ? { uuid: row.company_uuid, name: row.company_name ?? '' } : null,
    companyFinance:
      row.payment_profile_id !== null ? { id: row.payment_profile_id, iban: row.pp_iban, bic: row.pp_bic, type: row.pp_type ?? 0 } : null,
    expenseAccount:
      row.expense_account_id !== null ? { id: row.expense_account_id, number: row.account_number ?? '', name: row.account_name ?? '' } : null,
    referenceNumber: row.reference_number,
    message: row.message,
    description: row.description,
    status: row.status,
    statusName: payableStatusName[row.status] ?? String(row.status),
    transactionGroup: row.transaction_group_id !== null ? { id: row.transaction_group_id, status: row.group_status ?? 1 } : null,
    bankTxStatus: row.bank_tx_status,
    bankReason: row.bank_reason,
    bookingEntry: row.booking_entry_id !== null ? { id: row.booking_entry_id } : null,
    paymentEntry: row.payment_entry_id !== null ? { id: row.payment_entry_id } : null,
  };
}

export interface PayableFilters {
  status?: number | number[] | undefined;
  /** true: open bills only (pending, approved, in a group). */
  filterStatus?: boolean | undefined;
  companyUuid?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  isExpense?: boolean | undefined;
  transactionGroupId?: number | undefined;
  text?: string | undefined;
}

export async function listPayables(
  tx: Tx,
  instanceId: string,
  filters: PayableFilters,
  page: { page: number; pageSize: number },
): Promise<{ data: PayableAnswer[]; total: number }> {
  const where = ['p.instance_id = $1'];
  const params: unknown[] = [instanceId];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length}`));
  };
  if (filters.status !== undefined) add('p.status = ANY(?::smallint[])', [filters.status].flat());
  if (filters.filterStatus) add('p.status = ANY(?::smallint[])', OPEN_STATUSES);
  if (filters.companyUuid) add('p.company_uuid = ?', filters.companyUuid);
  if (filters.dateFrom) add('p.date >= ?', filters.dateFrom);
  if (filters.dateTo) add('p.date <= ?', filters.dateTo);
  if (filters.isExpense !== undefined) add('p.type_id = ?', filters.isExpense ? 1 : 0);
  if (filters.transactionGroupId !== undefined) add('p.transaction_group_id = ?', filters.transactionGroupId);
  if (filters.text) {
    // One parameter used three times: its number is the next one, known before `add` pushes it.
    const p = `$${params.length + 1}`;
    add(
      `(c.name ILIKE ${p} ESCAPE '\\' OR p.description ILIKE ${p} ESCAPE '\\' OR p.reference_number ILIKE ${p} ESCAPE '\\')`,
      `%${filters.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    );
  }
  const whereSql = where.join(' AND ');
  const [count] = await tx.query<{ total: string }>(
    `SELECT count(*) AS total FROM payable p LEFT JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid WHERE ${whereSql}`,
    params,
  );
  const rows = await tx.query<PayableRow>(
    `${PAYABLE_SELECT} WHERE ${whereSql} ORDER BY p.date DESC, p.id DESC LIMIT ${page.pageSize} OFFSET ${(page.page - 1) * page.pageSize}`,
    params,
  );
  return { data: rows.map(toPayableAnswer), total: Number(count!.total) };
}

async function selectPayable(tx: Tx, instanceId: string, key: { id?: number; uuid?: string }, lock = false): Promise<PayableRow | undefined> {
  const [row] = key.uuid
    ? await tx.query<PayableRow>(`${PAYABLE_SELECT} WHERE p.instance_id = $1 AND p.uuid = $2${lock ? ' FOR UPDATE OF p' : ''}`, [instanceId, key.uuid])
    : await tx.query<PayableRow>(`${PAYABLE_SELECT} WHERE p.instance_id = $1 AND p.id = $2${lock ? ' FOR UPDATE OF p' : ''}`, [instanceId, key.id]);
  return row;
}

/** One bill by numeric id or uuid; 404 when it is not one of the instance's. */
export async function getPayable(tx: Tx, instanceId: string, key: { id?: number; uuid?: string }, lock = false): Promise<PayableAnswer> {
  const row = await selectPayable(tx, instanceId, key, lock);
  if (!row) throw notFound(`Payable ${key.uuid ?? key.id}`);
  return toPayableAnswer(row);
}

async function instanceCurrencyId(tx: Tx, instanceId: string): Promise<number> {
  const [row] = await tx.query<{ currency_id: number }>('SELECT currency_id FROM instance WHERE id = $1', [instanceId]);
  return row?.currency_id ?? Currency.CHF;
}

/**
 * Checks a bill's references against the instance: company, payment profile (of that company, an
 * IBAN or QR-bill profile), expense account, reference number (a QR-IBAN needs a QR reference, SIX
 * IG QR-bill §3.3; otherwise a creditor reference RF… or none), amounts. Field names relative to `data`.
 */
async function resolveInput(tx: Tx, instanceId: string, input: PayableInput) {
  const fields: Record<string, string> = {};
  if (input.type === BillType.payable && !input.companyUuid) fields['company.uuid'] = 'a bill needs its supplier company';
  if (input.companyUuid) {
    const rows = await tx.query('SELECT 1 FROM company WHERE instance_id = $1 AND uuid = $2', [instanceId, input.companyUuid]);
    if (!rows.length) fields['company.uuid'] = `company ${input.companyUuid} not found`;
  }
  let profile: { iban: string | null; type_id: number; company_uuid: string } | undefined;
  if (input.paymentProfileId !== null) {
    [profile] = await tx.query<{ iban: string | null; type_id: number; company_uuid: string }>(
      'SELECT iban, type_id, company_uuid FROM payment_profile WHERE instance_id = $1 AND id = $2 AND NOT log_is_log',
      [instanceId, input.paymentProfileId],
    );
    if (!profile) fields['companyFinance.id'] = `payment profile ${input.paymentProfileId} not found`;
    else if (input.companyUuid && profile.company_uuid !== input.companyUuid) fields['companyFinance.id'] = 'the payment profile belongs to another company';
  }
  if (input.expenseAccountId !== null) {
    const rows = await tx.query('SELECT 1 FROM ledger_account WHERE instance_id = $1 AND id = $2', [instanceId, input.expenseAccountId]);
    if (!rows.length) fields['expenseAccount.id'] = `ledger account ${input.expenseAccountId} not found`;
  }
  const reference = input.referenceNumber?.replace(/\s+/g, '').toUpperCase() || null;
  if (reference && !isValidQrReference(reference) && !isValidCreditorReference(reference)) {
    fields.referenceNumber = 'reference is neither a QR reference nor a creditor reference (RF…)';
  } else if (profile?.iban && isQrIban(profile.iban) && !(reference && isValidQrReference(reference))) {
    fields.referenceNumber = 'a QR-IBAN needs a QR reference (27 digits)';
  } else if (reference && isValidQrReference(reference) && profile?.iban && !isQrIban(profile.iban)) {
    fields.referenceNumber = 'a QR reference needs a QR-IBAN';
  }
  if (toMoney(input.vatAmount).gt(toMoney(input.amount))) fields.vatAmount = 'VAT cannot exceed the amount';
  if (input.dueDate && input.dueDate < input.date) fields.dueDate = 'the due date cannot be before the bill date';
  const baseCurrency = await instanceCurrencyId(tx, instanceId);
  const currencyId = input.currency ? Currency[input.currency] : baseCurrency;
  let rate = input.exchangeRate ?? '1';
  if (currencyId === baseCurrency) rate = '1';
  else if (!input.exchangeRate) fields.exchangeRate = 'exchangeRate is required for a bill in another currency';
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw badRequest(`${first![0]}: ${first![1]}`, fields);
  }
  return { reference, currencyId, rate };
}

/** Creates a pending bill; answers it. 400 naming the field (relative to `data`). */
export async function insertPayable(tx: Tx, instanceId: string, input: PayableInput): Promise<PayableAnswer> {
  const { reference, currencyId, rate } = await resolveInput(tx, instanceId, input);
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO payable (instance_id, id, type_id, company_uuid, payment_profile_id, date, due_date, amount, vat_amount, currency_id,
                          exchange_rate, expense_account_id, reference_number, message, description)
     VALUES ($1, next_ids($1, 'payable'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
    [
      instanceId,
      input.type,
      input.companyUuid,
      input.paymentProfileId,
      input.date,
      input.dueDate,
      input.amount,
      input.vatAmount,
      currencyId,
      rate,
      input.expenseAccountId,
      reference,
      input.message?.trim() || null,
      input.description.trim(),
    ],
  );
  return getPayable(tx, instanceId, { id: row!.id });
}

/** Replaces the fields of a pending bill (409 once approved: its booking would no longer match). */
export async function updatePayable(tx: Tx, instanceId: string, uuid: string, input: PayableInput): Promise<PayableAnswer> {
  const current = await getPayable(tx, instanceId, { uuid }, true);
  if (current.status !== PayableStatus.pending) throw conflict(`only a pending bill can be changed (status ${current.statusName})`, { status: 'not pending' });
  const { reference, currencyId, rate } = await resolveInput(tx, instanceId, input);
  await tx.query(
    `UPDATE payable SET type_id = $3, company_uuid = $4, payment_profile_id = $5, date = $6, due_date = $7, amount = $8, vat_amount = $9,
            currency_id = $10, exchange_rate = $11, expense_account_id = $12, reference_number = $13, message = $14, description = $15
      WHERE instance_id = $1 AND uuid = $2`,
    [
      instanceId,
      uuid,
      input.type,
      input.companyUuid,
      input.paymentProfileId,
      input.date,
      input.dueDate,
      input.amount,
      input.vatAmount,
      currencyId,
      rate,
      input.expenseAccountId,
      reference,
      input.message?.trim() || null,
      input.description.trim(),
    ],
  );
  return getPayable(tx, instanceId, { uuid });
}

/** Deletes a pending bill; 409 for any other status (it is booked or paid: cancel it instead). */
export async function deletePayable(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  const current = await getPayable(tx, instanceId, { uuid }, true);
  if (current.status !== PayableStatus.pending) throw conflict(`only a pending bill can be deleted (status ${current.statusName})`);
  await tx.query('UPDATE inbox_file SET payable_id = NULL WHERE instance_id = $1 AND payable_id = $2', [instanceId, current.id]);
  await tx.query('DELETE FROM payable WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid]);
}

async function accountIdByNumber(tx: Tx, instanceId: string, number: string): Promise<number | undefined> {
  const [row] = await tx.query<{ id: number }>('SELECT id FROM ledger_account WHERE instance_id = $1 AND number = $2', [instanceId, number]);
  return row?.id;
}

/** The payables (creditors) account: function type payable (4), else number 2000. */
export async function payablesAccountId(tx: Tx, instanceId: string): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    'SELECT id FROM ledger_account WHERE instance_id = $1 AND function_type_id = 4 ORDER BY number LIMIT 1',
    [instanceId],
  );
  const id = row?.id ?? (await accountIdByNumber(tx, instanceId, '2000'));
  if (id === undefined) throw conflict('no payables account (function type payable or number 2000) in the chart');
  return id;
}

/**
 * The expense account of a bill: its own, else the one last used for the same supplier, else 4000
 * (Materialeinkauf) for bills and 6500 for expenses of the Swiss SME chart.
 */
async function expenseAccountOf(tx: Tx, instanceId: string, bill: PayableAnswer): Promise<number> {
  if (bill.expenseAccount) return bill.expenseAccount.id;
  if (bill.company) {
    const [row] = await tx.query<{ expense_account_id: number }>(
      `SELECT expense_account_id FROM payable WHERE instance_id = $1 AND company_uuid = $2 AND expense_account_id IS NOT NULL
        ORDER BY date DESC, id DESC LIMIT 1`,
      [instanceId, bill.company.uuid],
    );
    if (row) return row.expense_account_id;
  }
  const id = await accountIdByNumber(tx, instanceId, bill.isExpense ? '6500' : '4000');
  if (id === undefined) throw fieldError('expenseAccount.id', 'choose the expense account of this bill');
  return id;
}

const base = (amount: string, rate: string) => toMoney(amount).times(toMoney(rate)).toDecimalPlaces(2);

/**
 * Books an approved bill at its date: debit expense (net) and input VAT 1170 (VAT), credit
 * payables (gross), amounts in the instance currency (× exchangeRate, half-up to the cent).
 */
async function bookBill(tx: Tx, instanceId: string, userId: string | null, bill: PayableAnswer): Promise<number> {
  const gross = base(bill.amount, bill.exchangeRate);
  const vat = base(bill.vatAmount, bill.exchangeRate);
  const net = gross.minus(vat);
  const expenseAccountId = await expenseAccountOf(tx, instanceId, bill);
  const label = `${bill.isExpense ? 'Expense' : 'Bill'} ${bill.id}${bill.company ? ` ${bill.company.name}` : ''}`.slice(0, 500);
  const lines: PostingInput[] = [];
  if (net.gt(0)) lines.push({ accountId: expenseAccountId, amount: toFixedAmount(net), direction: 1, description: bill.description || null });
  if (vat.gt(0)) {
    const vatAccount = await accountIdByNumber(tx, instanceId, '1170');
    if (vatAccount === undefined) throw fieldError('vatAmount', 'no input VAT account 1170 in the chart');
    lines.push({ accountId: vatAccount, amount: toFixedAmount(vat), direction: 1 });
  }
  lines.push({ accountId: await payablesAccountId(tx, instanceId), amount: toFixedAmount(gross), direction: -1 });
  return postJournalEntry(tx, instanceId, userId, { dateLedger: bill.date, description: label, source: 'bill', sourceRef: bill.uuid, lines });
}

/** Posts the counter-entry of `entryId` at `date` (every line with the other direction). */
export async function reverseEntry(tx: Tx, instanceId: string, userId: string | null, entryId: number, date: string, why: string): Promise<number> {
  const entry = await getJournalEntry(tx, instanceId, entryId);
  return postJournalEntry(tx, instanceId, userId, {
    dateLedger: date,
    description: `${why}: reversal of entry ${entryId}`.slice(0, 500),
    source: 'bill',
    sourceRef: entry.id.toString(),
    lines: entry.entryAccounts.map((line) => ({
      accountId: line.account.id,
      amount: line.amount,
      direction: line.direction === 1 ? -1 : 1,
      description: line.description,
    })),
  });
}

/** Today's date in UTC, YYYY-MM-DD. */
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * Status change of a bill through update: pending → approved (books the bill), approved → pending
 * (reverses the booking), pending/approved → cancelled (reverses an existing booking at `date`).
 * Groups move bills to 3 and 4 (transaction-group status change). 409 for other transitions.
 */
export async function changePayableStatus(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  uuid: string,
  status: PayableStatusId,
  date: string = today(),
): Promise<PayableAnswer> {
  const bill = await getPayable(tx, instanceId, { uuid }, true);
  if (bill.status === status) return bill;
  const allowed: Record<number, number[]> = {
    [PayableStatus.pending]: [PayableStatus.approved, PayableStatus.cancelled],
    [PayableStatus.approved]: [PayableStatus.pending, PayableStatus.cancelled],
  };
  if (!allowed[bill.status]?.includes(status)) {
    throw conflict(`a bill cannot go from ${bill.statusName} to ${payableStatusName[status]}`, { 'data.status': 'transition not allowed' });
  }
  let bookingEntryId = bill.bookingEntry?.id ?? null;
  if (status === PayableStatus.approved) {
    bookingEntryId = await bookBill(tx, instanceId, userId, bill);
  } else if (bookingEntryId !== null) {
    await reverseEntry(tx, instanceId, userId, bookingEntryId, date, `${bill.isExpense ? 'Expense' : 'Bill'} ${bill.id} ${payableStatusName[status]}`);
    bookingEntryId = null;
  }
  await tx.query('UPDATE payable SET status = $3, booking_entry_id = $4 WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid, status, bookingEntryId]);
  return getPayable(tx, instanceId, { uuid });
}

/** Open bills per supplier ('Creditors'): count, open amount per currency, next due date. */
export async function listCreditors(tx: Tx, instanceId: string) {
  const rows = await tx.query<{ company_uuid: string | null; name: string | null; currency_id: number; open: string; bills: string; next_due: string | null; overdue: string }>(
    `SELECT p.company_uuid, c.name, p.currency_id, sum(p.amount)::text AS open, count(*) AS bills,
            min(coalesce(p.due_date, p.date)) AS next_due,
            count(*) FILTER (WHERE coalesce(p.due_date, p.date) < current_date) AS overdue
       FROM payable p LEFT JOIN company c ON c.instance_id = p.instance_id AND c.uuid = p.company_uuid
      WHERE p.instance_id = $1 AND p.status = ANY($2::smallint[])
      GROUP BY p.company_uuid, c.name, p.currency_id
      ORDER BY min(coalesce(p.due_date, p.date)), c.name`,
    [instanceId, OPEN_STATUSES],
  );
  return {
    data: rows.map((row) => ({
      company: row.company_uuid ? { uuid: row.company_uuid, name: row.name ?? '' } : null,
      currency: currencyCodeById(row.currency_id) ?? 'CHF',
      openAmount: toFixedAmount(row.open),
      bills: Number(row.bills),
      overdue: Number(row.overdue),
      nextDueDate: row.next_due,
    })),
  };
}
