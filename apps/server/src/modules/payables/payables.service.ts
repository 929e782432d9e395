/**
 * Bills and expenses (spec §3 "Payable", issue #5 §1) and their bookings.
 *
 * Lifecycle (PayableStatus): pending 1 (draft, editable, deletable) → approved 2 (booked: debit
 * expense + input VAT 1170/1171 / credit payables 2000, or the staff account 2250 for expenses, at
 * the bill's date) → in a transaction group 3 → paid 4 (payment booked: debit the same liability /
 * credit bank). approved → paid 4 directly through /payable/pay (direct debit, card, cash, staff
 * expense). Pending or approved → cancelled 5 (an approved bill's booking is reversed by a
 * counter-entry at the cancellation date). Every posting goes through the accounting module's
 * postJournalEntry, so balance and lock date always apply.
 */
import {
  BillType,
  Currency,
  currencyCodeById,
  isQrIban,
  isValidCreditorReference,
  isValidQrReference,
  INVOICE_VAT_RATES,
  payableDataIssues,
  inputVatCode,
  PayableStatus,
  toFixedAmount,
  toMoney,
  vatIncluded,
  vatPercentAt,
  vatRateTypeOf,
  type CurrencyCode,
  type Money,
  type PayableStatusId,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { afterKey, countedPage, decodeCursor, limitOffset, pageOf, type CountedRow, type PageRequest } from '../../db/paging.js';
import { referenceKey, textFilter, type TextKey } from '../../db/search.js';
import { companiesNamedLike } from '../companies/companies.service.js';
import { alreadyDone } from '../../http/errors.js';
import { payableError } from './payables.errors.js';
import {
  booksCurrency,
  controlAccount,
  listLedgerAccounts,
  postJournalEntry,
  reverseJournalEntry,
  settlementPostings,
  type LedgerAccount,
  type PostingInput,
  type PostingVatInput,
} from '../accounting/accounting.service.js';
import { companyExists, paymentProfileHeads, type PaymentProfileHead } from '../companies/companies.service.js';

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
  /** Input VAT included in `amount`; null: derived from `vatRate` (0 without a rate). */
  vatAmount: string | null;
  /** VAT rate as a fraction ('0.081', '0.026', '0.038', '0'); null or absent when unknown. */
  vatRate?: string | null | undefined;
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
  vatRate: string | null;
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
  /** Requested execution date of the bill's transfer while it is in a transaction group. */
  executionDate: string | null;
  bankTxStatus: string | null;
  bankReason: string | null;
  bookingEntry: { id: number } | null;
  paymentEntry: { id: number } | null;
  /** The account credited by the booking (payables 2000 or staff 2250); null before approval. */
  liabilityAccount: { id: number; number: string } | null;
  /**
   * Amount less payments and write-offs not reversed (issue 14 §3), in the bill's currency; 0 when
   * paid or cancelled.
   */
  openAmount: string;
}

export interface PayableRow {
  id: number;
  uuid: string;
  type_id: number;
  date: string;
  due_date: string | null;
  amount: string;
  vat_amount: string;
  vat_rate: string | null;
  currency_id: number;
  exchange_rate: string;
  company_uuid: string | null;
  payment_profile_id: number | null;
  expense_account_id: number | null;
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
  execution_date: string | null;
  liability_account_id: number | null;
  /** Through the owners' published views (decision 037). */
  company_name: string | null;
  profile: { iban: string | null; bic: string | null; type: number } | null;
  expense_account: { number: string; name: string } | null;
  liability_number: string | null;
  /** What payments (not reversed) settled: amount + write-off; null when none. */
  settled: string | null;
  [key: string]: unknown;
}

/**
 * Bills with their group's status and what they show of other modules, in one statement: the
 * supplier's name and payment profile through the companies module's published views, the expense
 * and liability accounts through accounting's (decision 037); and what payments settled
 * (payable_payment, 0032). Scalar subqueries rather than joins: planning a six-way join under row
 * security took 1.9 ms a page, the subqueries 0.25 ms (EXPLAIN at 1,500 bills; execution 0.5 against
 * 1.2 ms).
 */
export const PAYABLE_SELECT = `
  SELECT p.id, p.uuid, p.type_id, p.date, p.due_date, p.amount, p.vat_amount, p.vat_rate, p.currency_id, p.exchange_rate,
         p.company_uuid, p.payment_profile_id, p.expense_account_id, p.reference_number, p.message,
         p.description, p.status, p.transaction_group_id, p.bank_tx_status, p.bank_reason,
         p.booking_entry_id, p.payment_entry_id, p.execution_date, p.liability_account_id,
         (SELECT g.status FROM transaction_group g WHERE g.instance_id = p.instance_id AND g.id = p.transaction_group_id) AS group_status,
         (SELECT c.name FROM company_head c WHERE c.instance_id = p.instance_id AND c.uuid = p.company_uuid) AS company_name,
         (SELECT json_build_object('iban', pp.iban, 'bic', pp.bic, 'type', pp.type_id) FROM payment_profile_head pp
           WHERE pp.instance_id = p.instance_id AND pp.id = p.payment_profile_id) AS profile,
         (SELECT json_build_object('number', ea.number, 'name', ea.name) FROM ledger_account_head ea
           WHERE ea.instance_id = p.instance_id AND ea.id = p.expense_account_id) AS expense_account,
         (SELECT la.number FROM ledger_account_head la WHERE la.instance_id = p.instance_id AND la.id = p.liability_account_id) AS liability_number,
         (SELECT sum(pay.amount + pay.write_off)::text FROM payable_payment pay
           WHERE pay.instance_id = p.instance_id AND pay.payable_id = p.id AND pay.reversed_at IS NULL) AS settled
    FROM payable p`;

/** The answer for a row of `PAYABLE_SELECT`. */
export function payableAnswer(row: PayableRow): PayableAnswer {
  return {
    id: row.id,
    uuid: row.uuid,
    type: row.type_id,
    isExpense: row.type_id === BillType.expense,
    date: row.date,
    dueDate: row.due_date,
    amount: row.amount,
    vatAmount: row.vat_amount,
    vatRate: row.vat_rate === null ? null : toMoney(row.vat_rate).toFixed(),
    currency: currencyCodeById(row.currency_id) ?? 'CHF',
    exchangeRate: toMoney(row.exchange_rate).toFixed(),
    company: row.company_uuid ? { uuid: row.company_uuid, name: row.company_name ?? '' } : null,
    companyFinance:
      row.payment_profile_id !== null
        ? { id: row.payment_profile_id, iban: row.profile?.iban ?? null, bic: row.profile?.bic ?? null, type: row.profile?.type ?? 0 }
        : null,
    expenseAccount:
      row.expense_account_id !== null ? { id: row.expense_account_id, number: row.expense_account?.number ?? '', name: row.expense_account?.name ?? '' } : null,
    referenceNumber: row.reference_number,
    message: row.message,
    description: row.description,
    status: row.status,
    statusName: payableStatusName[row.status] ?? String(row.status),
    transactionGroup: row.transaction_group_id !== null ? { id: row.transaction_group_id, status: row.group_status ?? 1 } : null,
    executionDate: row.execution_date,
    bankTxStatus: row.bank_tx_status,
    bankReason: row.bank_reason,
    bookingEntry: row.booking_entry_id !== null ? { id: row.booking_entry_id } : null,
    paymentEntry: row.payment_entry_id !== null ? { id: row.payment_entry_id } : null,
    liabilityAccount: row.liability_account_id !== null ? { id: row.liability_account_id, number: row.liability_number ?? '' } : null,
    openAmount:
      row.status === PayableStatus.paid || row.status === PayableStatus.cancelled
        ? '0.00'
        : toFixedAmount(toMoney(row.amount).minus(toMoney(row.settled ?? '0'))),
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

/**
 * Bills and expenses matching `filters`, newest first, one page (db/paging.ts): by `page` or after
 * `cursor` (date, id), counted up to COUNT_CAP.
 */
export async function listPayables(
  tx: Tx,
  instanceId: string,
  filters: PayableFilters,
  page: PageRequest,
): Promise<{ data: PayableAnswer[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
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
    const matched = await payableTextMatch(tx, filters.text, params);
    if (matched) where.push(matched);
  }
  const whereSql = where.join(' AND ');
  const { rows, counted } = await countedPage(tx, `SELECT 1 FROM payable p WHERE ${whereSql}`, params, page, (countColumn) => {
    const after = page.cursor ? ` AND ${afterKey(['p.date', 'p.id'], ['date', 'int'], 'desc', decodeCursor(page.cursor, ['date', 'int']), params)}` : '';
    const pageSql = `${PAYABLE_SELECT} WHERE ${whereSql}${after} ORDER BY p.date DESC, p.id DESC ${limitOffset(page)}`;
    return tx.query<PayableRow & CountedRow>(countColumn ? `SELECT q.*, ${countColumn} FROM (${pageSql}) q ORDER BY q.date DESC, q.id DESC` : pageSql, params);
  });
  const paged = pageOf(rows, page, (row) => [row.date, row.id], counted);
  return { data: paged.rows.map(payableAnswer), ...counted, nextCursor: paged.nextCursor };
}

/**
 * The SQL condition on `p` (a bill or expense) of a list's free text (decision 033, addendum):
 * every word of 2 or more characters of `text` found inside a word of the description or in the
 * supplier's or employee's name (through the companies module's published view, decision 037), or
 * the text is the bill's whole reference number (spaces ignored). Index ranges and probes only, but
 * for the names, read with LIKE on the lower-cased name the companies module publishes (migration
 * 0051) over the instance's companies: under row security an ILIKE over the bills scanned all of
 * them. Null when `text` has nothing to match (no word of 2 or more
 * characters and no reference, e.g. "-" or "x"): the text then filters nothing.
 */
async function payableTextMatch(tx: Tx, text: string, params: unknown[]): Promise<string | null> {
  const reference = referenceKey(text);
  const keys: TextKey[] = reference
    ? [{ value: reference, ids: (p) => `SELECT r.id FROM payable r WHERE r.instance_id = $1 AND r.reference_number = ${p}` }]
    : [];
  return textFilter(tx, 'p', text, {
    table: 'payable',
    words: { table: 'payable_word', key: 'payable_id' },
    names: (pattern) => `SELECT n.id FROM payable n WHERE n.instance_id = $1 AND n.company_uuid IN (${companiesNamedLike(pattern)})`,
  }, keys, params);
}

/**
 * With `lock`, the bill's row is locked first (`FOR UPDATE`) and then read by a new statement: a
 * locking read that waited for another transaction sees that transaction's bill row but not its
 * payments (READ COMMITTED keeps the statement's snapshot for the other tables), so the open amount
 * of a parallel payment's answer would be the one before it.
 */
async function selectPayable(tx: Tx, instanceId: string, key: { id?: number; uuid?: string }, lock = false): Promise<PayableRow | undefined> {
  const where = key.uuid ? 'p.instance_id = $1 AND p.uuid = $2' : 'p.instance_id = $1 AND p.id = $2';
  const params = [instanceId, key.uuid ?? key.id];
  if (lock) await tx.query(`SELECT 1 FROM payable p WHERE ${where} FOR UPDATE`, params);
  const [row] = await tx.query<PayableRow>(`${PAYABLE_SELECT} WHERE ${where}`, params);
  return row;
}

/** One bill by numeric id or uuid; 404 when it is not one of the instance's. */
export async function getPayable(tx: Tx, instanceId: string, key: { id?: number; uuid?: string }, lock = false): Promise<PayableAnswer> {
  const row = await selectPayable(tx, instanceId, key, lock);
  if (!row) throw payableError('payable_not_found', `Payable ${key.uuid ?? key.id} not found`);
  return payableAnswer(row);
}

/**
 * Checks a bill's references against the instance: company, payment profile (of that company, an
 * IBAN or QR-bill profile), expense account, reference number (a QR-IBAN needs a QR reference, SIX
 * IG QR-bill §3.3; otherwise a creditor reference RF… or none), amounts. Field names relative to `data`.
 */
async function resolveInput(tx: Tx, instanceId: string, input: PayableInput) {
  const fields: Record<string, string> = { ...payableDataIssues(input) };
  if (input.type === BillType.payable && !input.companyUuid) fields['company.uuid'] = 'a bill needs its supplier company';
  if (input.companyUuid && !(await companyExists(tx, instanceId, input.companyUuid))) fields['company.uuid'] = `company ${input.companyUuid} not found`;
  let profile: PaymentProfileHead | undefined;
  if (input.paymentProfileId !== null) {
    profile = (await paymentProfileHeads(tx, instanceId, [input.paymentProfileId])).get(input.paymentProfileId);
    // An archived profile stays on the bills that have it, but new input cannot choose it.
    if (profile?.archived) profile = undefined;
    if (!profile) fields['companyFinance.id'] = `payment profile ${input.paymentProfileId} not found`;
    else if (input.companyUuid && profile.companyUuid !== input.companyUuid) fields['companyFinance.id'] = 'the payment profile belongs to another company';
  }
  if (input.expenseAccountId !== null && !(await listLedgerAccounts(tx, instanceId, { ids: [input.expenseAccountId] })).length) {
    fields['expenseAccount.id'] = `ledger account ${input.expenseAccountId} not found`;
  }
  const reference = input.referenceNumber?.replace(/\s+/g, '').toUpperCase() || null;
  if (reference && !isValidQrReference(reference) && !isValidCreditorReference(reference)) {
    fields.referenceNumber = 'reference is neither a QR reference nor a creditor reference (RF…)';
  } else if (profile?.iban && isQrIban(profile.iban) && !(reference && isValidQrReference(reference))) {
    fields.referenceNumber = 'a QR-IBAN needs a QR reference (27 digits)';
  } else if (reference && isValidQrReference(reference) && profile?.iban && !isQrIban(profile.iban)) {
    fields.referenceNumber = 'a QR reference needs a QR-IBAN';
  }
  const vatRate = input.vatRate == null ? null : INVOICE_VAT_RATES.find((rate) => toMoney(rate).eq(toMoney(input.vatRate!)));
  if (vatRate === undefined) fields.vatRate = `VAT rate must be one of ${INVOICE_VAT_RATES.join(', ')} (8.1 %, 2.6 %, 3.8 %, 0 %)`;
  const vatAmount = input.vatAmount ?? (vatRate ? vatIncluded(input.amount, vatRate) : '0.00');
  if (toMoney(vatAmount).gt(toMoney(input.amount))) fields.vatAmount = 'VAT cannot exceed the amount';
  else if (vatRate !== undefined && vatRate !== null && toMoney(vatRate).isZero() && toMoney(vatAmount).gt(0)) {
    fields.vatAmount = 'a bill at 0 % VAT carries no VAT amount';
  }
  if (input.dueDate && input.dueDate < input.date) fields.dueDate = 'the due date cannot be before the bill date';
  const baseCurrency = Currency[await booksCurrency(tx, instanceId)];
  const currencyId = input.currency ? Currency[input.currency] : baseCurrency;
  let rate = input.exchangeRate ?? '1';
  if (currencyId === baseCurrency) rate = '1';
  else if (!input.exchangeRate) fields.exchangeRate = 'exchangeRate is required for a bill in another currency';
  if (Object.keys(fields).length) {
    const [first] = Object.entries(fields);
    throw payableError('invalid_payable', `${first![0]}: ${first![1]}`, fields);
  }
  return { reference, currencyId, rate, vatAmount, vatRate: vatRate ?? null };
}


/** Creates a pending bill; answers it. 400 naming the field (relative to `data`). */
export async function insertPayable(tx: Tx, instanceId: string, input: PayableInput): Promise<PayableAnswer> {
  const { reference, currencyId, rate, vatAmount, vatRate } = await resolveInput(tx, instanceId, input);
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO payable (instance_id, id, type_id, company_uuid, payment_profile_id, date, due_date, amount, vat_amount, currency_id,
                          exchange_rate, expense_account_id, reference_number, message, description, vat_rate)
     VALUES ($1, next_ids($1, 'payable'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
    [
      instanceId,
      input.type,
      input.companyUuid,
      input.paymentProfileId,
      input.date,
      input.dueDate,
      input.amount,
      vatAmount,
      currencyId,
      rate,
      input.expenseAccountId,
      reference,
      input.message?.trim() || null,
      input.description.trim(),
      vatRate,
    ],
  );
  return getPayable(tx, instanceId, { id: row!.id });
}

/** Replaces the fields of a pending bill (409 once approved: its booking would no longer match). */
export async function updatePayable(tx: Tx, instanceId: string, uuid: string, input: PayableInput): Promise<PayableAnswer> {
  const current = await getPayable(tx, instanceId, { uuid }, true);
  if (current.status !== PayableStatus.pending) throw payableError('payable_not_pending', `only a pending bill can be changed (status ${current.statusName})`, { status: 'not pending' });
  const { reference, currencyId, rate, vatAmount, vatRate } = await resolveInput(tx, instanceId, input);
  await tx.query(
    `UPDATE payable SET type_id = $3, company_uuid = $4, payment_profile_id = $5, date = $6, due_date = $7, amount = $8, vat_amount = $9,
            currency_id = $10, exchange_rate = $11, expense_account_id = $12, reference_number = $13, message = $14, description = $15,
            vat_rate = $16
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
      vatAmount,
      currencyId,
      rate,
      input.expenseAccountId,
      reference,
      input.message?.trim() || null,
      input.description.trim(),
      vatRate,
    ],
  );
  return getPayable(tx, instanceId, { uuid });
}

/** Deletes a pending bill; 409 for any other status (it is booked or paid: cancel it instead). */
export async function deletePayable(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  const current = await getPayable(tx, instanceId, { uuid }, true);
  if (current.status !== PayableStatus.pending) throw payableError('payable_not_pending', `only a pending bill can be deleted (status ${current.statusName})`);
  await tx.query('UPDATE inbox_file SET payable_id = NULL WHERE instance_id = $1 AND payable_id = $2', [instanceId, current.id]);
  await tx.query('DELETE FROM payable WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid]);
}

/** The instance's ledger account numbered `number`, if the chart has it. */
async function accountByNumber(tx: Tx, instanceId: string, number: string): Promise<LedgerAccount | undefined> {
  const [account] = await listLedgerAccounts(tx, instanceId, { numbers: [number] });
  return account;
}

/**
 * The liability a bill is credited to at approval (accounting's control accounts): payables 2000
 * for supplier bills; for staff expenses 2250 "Personalaufwand" in group 220 "Übrige kurzfristige
 * Verbindlichkeiten" (Kontenrahmen KMU), payables when the chart has no 2250 — staff expenses are
 * not trade payables, so they are kept off 2000 and the creditors list agrees with 2000.
 */
const liabilityAccountFor = (tx: Tx, instanceId: string, bill: PayableAnswer): Promise<number> =>
  controlAccount(tx, instanceId, bill.isExpense ? 'expenses' : 'payable');

/** The account a booked bill's payment debits: the one its booking credited (2000 before 0007). */
export async function liabilityAccountOf(tx: Tx, instanceId: string, bill: PayableAnswer): Promise<number> {
  return bill.liabilityAccount?.id ?? controlAccount(tx, instanceId, 'payable');
}

/**
 * The expense account of a bill: its own, else the one booked on the supplier's last approved bill
 * — for a staff expense the employee's last approved expense (`lastExpenseAccount`) — (approved, in
 * a group or paid: drafts and cancelled bills teach nothing), else 4000 (Materialeinkauf) for bills
 * and 6500 for expenses of the Swiss SME chart.
 */
async function expenseAccountOf(tx: Tx, instanceId: string, bill: PayableAnswer): Promise<number> {
  if (bill.expenseAccount) return bill.expenseAccount.id;
  const learned = bill.company ? await lastExpenseAccount(tx, instanceId, bill.company.uuid, bill.isExpense) : undefined;
  if (learned !== undefined) return learned;
  const id = (await accountByNumber(tx, instanceId, bill.isExpense ? '6500' : '4000'))?.id;
  if (id === undefined) throw payableError('expense_account_required', 'choose the expense account of this bill', { 'expenseAccount.id': 'choose the expense account of this bill' });
  return id;
}

/**
 * The expense account of the company's last approved bill (by bill date, then id), if any: of its
 * supplier bills for a bill, of its staff expenses for an expense — and never of a salary claim
 * (category purpose SALA, booked on the clearing account 1091, decision 026), which would send
 * the employee's next train ticket to the payroll clearing account.
 */
export async function lastExpenseAccount(tx: Tx, instanceId: string, companyUuid: string, isExpense = false): Promise<number | undefined> {
  const [row] = await tx.query<{ expense_account_id: number }>(
    `SELECT expense_account_id FROM payable
      WHERE instance_id = $1 AND company_uuid = $2 AND expense_account_id IS NOT NULL AND status IN (2, 3, 4)
        AND type_id = $3 AND category_purpose IS NULL
      ORDER BY date DESC, id DESC LIMIT 1`,
    [instanceId, companyUuid, isExpense ? BillType.expense : BillType.payable],
  );
  return row?.expense_account_id;
}

/**
 * Input VAT account by what was bought (Swiss SME chart, Kontenrahmen KMU): 1170 "Vorsteuer auf
 * Material- und Dienstleistungsaufwand" for class 4 (material, goods, services), 1171 "Vorsteuer
 * auf Investitionen und übrigem Betriebsaufwand" for investments (class 1) and operating expenses
 * (classes 5–8) — the split the VAT return asks for (figures 400 and 405).
 */
export function inputVatAccountNumber(expenseAccountNumber: string): '1170' | '1171' {
  return expenseAccountNumber.startsWith('4') ? '1170' : '1171';
}

const base = (amount: string, rate: string) => toMoney(amount).times(toMoney(rate)).toDecimalPlaces(2);

/**
 * The input VAT code of a bill (decision 019): M… on 1170, I… on 1171 (by the expense account), at
 * the bill's rate type: its `vatRate`, or without one the Swiss rate of the bill date nearest to
 * VAT ÷ net (standard on a tie); the percent is the type's at the bill date (the supply date).
 */
function billVatCode(bill: PayableAnswer, net: Money, vat: Money, vatAccount: '1170' | '1171'): { code: string; percent: string } {
  let type = bill.vatRate == null ? undefined : vatRateTypeOf(bill.vatRate);
  if (type === undefined || type === 'zero') {
    const implied = net.isZero() ? toMoney(0) : vat.dividedBy(net).times(100);
    const candidates = (['standard', 'reduced', 'accommodation'] as const).map((t) => ({ t, gap: toMoney(vatPercentAt(t, bill.date)).minus(implied).abs() }));
    type = candidates.reduce((best, c) => (c.gap.lt(best.gap) ? c : best)).t;
  }
  return { code: inputVatCode(type, vatAccount), percent: vatPercentAt(type, bill.date) };
}

/**
 * Books an approved bill at its date: debit expense (net) and input VAT 1170/1171 (VAT), credit
 * the liability (gross: payables 2000, staff 2250 for expenses), amounts in the instance currency
 * (× exchangeRate, half-up to the cent). The expense and the input VAT carry the bill's input VAT
 * code (`billVatCode`) as base and tax lines, the tax as on the bill. Returns the entry id and the
 * accounts it used.
 */
async function bookBill(tx: Tx, instanceId: string, userId: string | null, bill: PayableAnswer) {
  const gross = base(bill.amount, bill.exchangeRate);
  const vat = base(bill.vatAmount, bill.exchangeRate);
  const net = gross.minus(vat);
  const expenseAccountId = await expenseAccountOf(tx, instanceId, bill);
  const liabilityAccountId = await liabilityAccountFor(tx, instanceId, bill);
  const label = billLabel(bill);
  const lines: PostingInput[] = [];
  let vatLine: PostingInput | undefined;
  let baseVat: PostingVatInput | null = null;
  if (vat.gt(0)) {
    const [expense] = await listLedgerAccounts(tx, instanceId, { ids: [expenseAccountId] });
    const vatNumber = inputVatAccountNumber(expense?.number ?? '');
    const vatAccount = (await accountByNumber(tx, instanceId, vatNumber))?.id;
    if (vatAccount === undefined) throw inputVatAccountMissing(vatNumber);
    const { code, percent } = billVatCode(bill, net, vat, vatNumber);
    vatLine = { accountId: vatAccount, amount: toFixedAmount(vat), direction: 1, vat: { code, role: 'tax', percent, base: toFixedAmount(net) } };
    baseVat = { code, role: 'base', percent, tax: toFixedAmount(vat) };
  }
  if (net.gt(0)) lines.push({ accountId: expenseAccountId, amount: toFixedAmount(net), direction: 1, description: bill.description || null, vat: baseVat });
  if (vatLine) lines.push(vatLine);
  lines.push({ accountId: liabilityAccountId, amount: toFixedAmount(gross), direction: -1 });
  const entryId = await postJournalEntry(tx, instanceId, userId, { dateLedger: bill.date, description: label, source: 'bill', sourceRef: bill.uuid, lines });
  return { entryId, expenseAccountId, liabilityAccountId };
}

/**
 * Posts the counter-entry of a bill's booking or payment `entryId` at `date` (accounting's
 * `reverseJournalEntry`, source 'bill', so the bill's history finds it); returns its id.
 */
export async function reverseEntry(tx: Tx, instanceId: string, userId: string | null, entryId: number, date: string, why: string): Promise<number> {
  return reverseJournalEntry(tx, instanceId, userId, entryId, { date, description: `${why}: reversal of entry ${entryId}`, source: 'bill' });
}

const inputVatAccountMissing = (number: string) =>
  payableError('input_vat_account_missing', `no input VAT account ${number} in the chart`, { vatAmount: `no input VAT account ${number} in the chart` });

/**
 * The journal text of a bill's booking (and, after 'Payment of', of its payment): 'Bill 7 Muster AG'
 * for a supplier bill; for a staff expense the employee and what was bought, 'Expense 3 · Anna
 * Muster · Train ticket Bern' (issue 16 §4: the typed description belongs in the journal, where a
 * bare 'Expense 3' says nothing). At most 500 characters (the entry's description).
 */
export function billLabel(bill: Pick<PayableAnswer, 'id' | 'isExpense' | 'company' | 'description'>, capital = true): string {
  const kind = bill.isExpense ? 'Expense' : 'Bill';
  const head = `${capital ? kind : kind.toLowerCase()} ${bill.id}`;
  const label = bill.isExpense
    ? [head, bill.company?.name, bill.description.trim()].filter(Boolean).join(' · ')
    : `${head}${bill.company ? ` ${bill.company.name}` : ''}`;
  return label.slice(0, 500);
}

/** Today's date in UTC, YYYY-MM-DD. */
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * Status change of a bill through update: pending → approved (books the bill), approved → pending
 * (reverses the booking), pending/approved → cancelled (reverses an existing booking at `date`).
 * Groups move bills to 3 and 4 (transaction-group status change), /payable/pay to 4. 409 for other
 * transitions, and on or before the lock date (nothing is written then).
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
    throw payableError('status_transition', `a bill cannot go from ${bill.statusName} to ${payableStatusName[status]}`, { 'data.status': 'transition not allowed' });
  }
  if (bill.status === PayableStatus.approved && bill.openAmount !== bill.amount) {
    // Part paid (issue 14 §3): the booking stays while payments rest on it.
    throw payableError('status_transition', `bill ${bill.id} has payments: reverse them before changing its booking`, { 'data.status': 'the bill has payments' });
  }
  if (status === PayableStatus.approved) {
    const booked = await bookBill(tx, instanceId, userId, bill);
    // The account actually booked is kept: the supplier's next bill learns it, the payment debits the liability.
    await tx.query(
      'UPDATE payable SET status = 2, booking_entry_id = $3, expense_account_id = $4, liability_account_id = $5 WHERE instance_id = $1 AND uuid = $2',
      [instanceId, uuid, booked.entryId, booked.expenseAccountId, booked.liabilityAccountId],
    );
    return getPayable(tx, instanceId, { uuid });
  }
  if (bill.bookingEntry) {
    await reverseEntry(tx, instanceId, userId, bill.bookingEntry.id, date, `${bill.isExpense ? 'Expense' : 'Bill'} ${bill.id} ${payableStatusName[status]}`);
  }
  await tx.query('UPDATE payable SET status = $3, booking_entry_id = NULL, liability_account_id = NULL WHERE instance_id = $1 AND uuid = $2', [
    instanceId,
    uuid,
    status,
  ]);
  return getPayable(tx, instanceId, { uuid });
}

/**
 * Books a booked bill's payment at `date`: debit the liability its booking credited (payables 2000
 * or staff 2250) / credit `paymentAccountId` (bank, cash, card). The liability nets to zero at the
 * bill's exchange rate; for a bill in another currency `settledBase` — what left the account in the
 * books' currency, 2 decimals — is credited to the bank and the difference booked as realized
 * exchange difference (6942/6952, accounting/settlement.service.ts; 400 on `field` as described
 * there). Marks the bill paid (4); returns the entry id. Used by groups, statement matches
 * (automatic and manual) and /payable/pay alike.
 */
export async function bookPayment(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  bill: PayableAnswer,
  paymentAccountId: number,
  date: string,
  settledBase?: string | null,
  field = 'amountBase',
): Promise<number> {
  // What is still open: a bill paid in part by hand is settled for its rest (issue 14 §3).
  const open = toMoney(bill.openAmount).gt(0) ? bill.openAmount : bill.amount;
  const entryId = await postJournalEntry(tx, instanceId, userId, {
    dateLedger: date,
    description: `Payment of ${billLabel(bill, false)}`.slice(0, 500),
    source: 'payment',
    sourceRef: bill.uuid,
    lines: await settlementPostings(tx, instanceId, {
      kind: 'payable',
      documentAccountId: await liabilityAccountOf(tx, instanceId, bill),
      bankAccountId: paymentAccountId,
      currency: bill.currency as CurrencyCode,
      originalAmount: open,
      bookedRate: bill.exchangeRate,
      base: await booksCurrency(tx, instanceId),
      settledBase,
      field,
    }),
  });
  // Conditional on the state the caller read: a caller that read without the row lock (or a future
  // one) cannot pay a bill twice; the whole transaction, posting included, is rolled back then.
  const changed = await tx.query('UPDATE payable SET status = 4, payment_entry_id = $3 WHERE instance_id = $1 AND id = $2 AND status IN (2, 3) RETURNING id', [
    instanceId,
    bill.id,
    entryId,
  ]);
  if (!changed.length) throw alreadyPaid(bill);
  // The payment as a row of the bill's payments (open amount, history, reversal).
  await tx.query(
    `INSERT INTO payable_payment (instance_id, payable_id, date_paid, amount, bank_account_id, entry_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [instanceId, bill.id, date, open, paymentAccountId, entryId, userId],
  );
  return entryId;
}

/** 409 `already_done` for a bill whose payment is booked already (issue 11 §1). */
export const alreadyPaid = (bill: Pick<PayableAnswer, 'id' | 'isExpense'>) =>
  alreadyDone(`${bill.isExpense ? 'expense' : 'bill'} ${bill.id} is already paid`, { status: 'already paid' });

// What banking asks of bills and groups (bank-settlement.ts).
export {
  billIdOfEndToEndId,
  endToEndIdsOfBills,
  billsToMatch,
  openBillsToMatch,
  lockBillAndGroup,
  settleBill,
  lockGroupOfMessage,
  lockGroupBills,
  rejectBankPayment,
  reopenBillPayment,
  setBankTransactionStatus,
  recordGroupBankStatus,
  type BillToMatch,
  type MatchableBill,
  type ReportedGroup,
  type GroupBill,
} from './bank-settlement.js';

export { openBillsOfCompanies, type OpenBill } from './open-bills.js';
export { billsOfCompany, type CompanyBill } from './company-documents.js';
export { payablesCounts } from './payables.counts.js';
export { expensesBySupplier, STAFF_EXPENSES, type SupplierExpenses } from './supplier-expenses.js';
export { openPayablesAt, inputVatOfPeriod } from './ledger-checks.js';
export { insertSalaryClaims, type SalaryClaimInput } from './salary-payments.js';
