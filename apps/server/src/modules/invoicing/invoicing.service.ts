/**
 * Sales invoices (spec §3 Invoice / Invoice item, §4 Invoice status, issue #4 §3): creation with a
 * payment reference fixed from the payment profile, lines, totals, status changes that post normal
 * journal entries through the accounting module, debtors with ageing, CSV import and share links.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  AccountType,
  Currency,
  DEFAULT_PAYMENT_TERM_DAYS,
  InvoiceStatus,
  INVOICE_CURRENCIES,
  INVOICE_VAT_RATES,
  PaymentProfileType,
  addDays,
  currencyCodeById,
  daysBetween,
  fieldErrors,
  formatReferenceNumber,
  invoiceCreditorReference,
  invoiceImportRowSchema,
  invoiceItemProblems,
  invoiceLineTotal,
  invoiceQrReference,
  invoiceTotals,
  isQrIban,
  isValidSwissUid,
  normalizeVatRate,
  toBaseAmount,
  toFixedAmount,
  toMoney,
  vatAccountsFor,
  type CurrencyCode,
  type InvoiceImportRow,
  type InvoiceTotals,
  type Money,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone, AppError, conflict, fieldError, notFound } from '../../http/errors.js';
import { chartAccountId, getJournalEntry, listLedgerAccounts, postJournalEntry, settlementPostings, type PostingInput } from '../accounting/accounting.service.js';
import {
  insertItem,
  selectInvoices,
  selectItem,
  selectItems,
  updateItem,
  type InvoiceFilter,
  type InvoiceItemRow,
  type InvoiceRow,
  type ItemColumns,
} from './invoicing.sql.js';

export const STATUS_NAMES: Record<number, string> = { 1: 'pending', 2: 'sent', 3: 'paid', 4: 'denied' };

export interface ItemData {
  name: string;
  /** Quantity, decimal string (≤ 4 decimals). */
  amount: string;
  /** Unit price in the invoice currency, decimal string (≤ 4 decimals). */
  price: string;
  /** Percent discount 0–100. */
  discount?: string | null | undefined;
  /** Absolute discount on the line. */
  discountAbs?: string | null | undefined;
  /** The line's VAT rate (fraction); absent or null: the invoice's rate. */
  vat?: string | null | undefined;
  /** Revenue ledger account; absent or null: the account of the line's VAT rate (SWISS_VAT_ACCOUNTS). */
  account?: { id: number } | null | undefined;
  /** Must be the invoice's currency when given. */
  currency?: CurrencyCode | undefined;
  /** Informational; the invoice's fxRate is stored on the line. */
  fxRate?: string | undefined;
}

export interface InvoiceData {
  company: { uuid: string };
  address: { id: number };
  paymentProfile: { id: number };
  /** VAT rate as a fraction: the instance rate or 0.081, 0.026, 0.038, 0. Default: the instance rate. */
  vat?: string | undefined;
  currency?: 'CHF' | 'EUR' | undefined;
  /** Books' currency per 1 unit of `currency`; 1 (and only 1) when both are the same. */
  fxRate?: string | undefined;
  dateInvoice: string;
  /** Absent or null: dateInvoice + 30 days. */
  dateDue?: string | null | undefined;
  description?: string | undefined;
  items?: ItemData[] | undefined;
}

export interface InvoiceItem {
  id: number;
  name: string;
  amount: string;
  price: string;
  discount: string | null;
  discountAbs: string | null;
  /** The line's own VAT rate (fraction), or null for the invoice's. */
  vat: string | null;
  /** The chosen revenue account, or null: the account of the VAT rate at sending. */
  account: { id: number; number: string; name: string } | null;
  currency: CurrencyCode;
  fxRate: string;
  logDateAdded: string;
  /** Line total: amount × price less the discount, 2 decimals. */
  total: string;
}

export interface Invoice {
  uuid: string;
  id: number;
  /** 'BILAN' + id padded to 6. */
  refNumber: string;
  refNumberInt: number;
  /** QR reference (27 digits) or creditor reference (RF…) printed on the QR-bill. */
  paymentReference: string;
  status: number;
  statusName: string;
  company: { uuid: string; name: string };
  address: { id: number; street: string; houseNumber: string | null; zip: string; city: string; country: { id: number } };
  paymentProfile: { id: number; type: number; iban: string | null; account: { id: number } | null };
  vat: string;
  currency: CurrencyCode;
  /** Units of `baseCurrency` per unit of `currency` (1 when they are the same). */
  fxRate: string;
  /** The books' (instance's) currency. */
  baseCurrency: CurrencyCode;
  /** totals.total × fxRate, half-up to the cent: the receivable in the books. */
  totalBase: string;
  dateInvoice: string;
  dateDue: string;
  /** Days from the invoice date to the due date. */
  paymentTermDays: number;
  description: string;
  bankRef: string | null;
  ledgerDate: string | null;
  items: InvoiceItem[];
  totals: InvoiceTotals;
  /** Journal entries posted for this invoice (status changes). */
  entries: { id: number; kind: 'sent' | 'paid' | 'denied' }[];
  shared: boolean;
}

/** "12.5000" → "12.5", "3.0000" → "3": the stored scale is an implementation detail. */
function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

const toItem = (row: InvoiceItemRow): InvoiceItem => ({
  id: row.id,
  name: row.label,
  amount: trimZeros(row.quantity),
  price: trimZeros(row.price),
  discount: row.discount === null ? null : trimZeros(row.discount),
  discountAbs: row.discount_abs,
  vat: row.vat_rate === null ? null : normalizeVatRate(row.vat_rate),
  account: row.account_id === null ? null : { id: row.account_id, number: row.account_number ?? '', name: row.account_name ?? '' },
  currency: currencyCodeById(row.currency_id) ?? 'CHF',
  fxRate: trimZeros(row.fx_rate),
  logDateAdded: String(row.created_at),
  total: invoiceLineTotal({ quantity: row.quantity, price: row.price, discount: row.discount, discountAbs: row.discount_abs }),
});

function toInvoice(row: InvoiceRow, items: InvoiceItemRow[]): Invoice {
  const mapped = items.map(toItem);
  const currency = currencyCodeById(row.currency_id) ?? 'CHF';
  const entries: Invoice['entries'] = [];
  if (row.sent_entry_id) entries.push({ id: row.sent_entry_id, kind: 'sent' });
  if (row.paid_entry_id) entries.push({ id: row.paid_entry_id, kind: 'paid' });
  if (row.denied_entry_id) entries.push({ id: row.denied_entry_id, kind: 'denied' });
  const totals = invoiceTotals(
    mapped.map((item) => ({ quantity: item.amount, price: item.price, discount: item.discount, discountAbs: item.discountAbs, vatRate: item.vat })),
    row.vat_rate,
    currency,
  );
  const fxRate = trimZeros(row.fx_rate);
  return {
    uuid: row.uuid,
    id: row.id,
    refNumber: formatReferenceNumber(row.id),
    refNumberInt: row.id,
    paymentReference: row.payment_reference,
    status: row.status_id,
    statusName: STATUS_NAMES[row.status_id] ?? String(row.status_id),
    company: { uuid: row.company_uuid, name: row.company_name },
    address: {
      id: row.address_id,
      street: row.street,
      houseNumber: row.house_number,
      zip: row.zip,
      city: row.city,
      country: { id: row.country_id },
    },
    paymentProfile: {
      id: row.payment_profile_id,
      type: row.profile_type_id,
      iban: row.profile_iban,
      account: row.profile_account_id === null ? null : { id: row.profile_account_id },
    },
    vat: normalizeVatRate(row.vat_rate),
    currency,
    fxRate,
    baseCurrency: currencyCodeById(row.base_currency_id) ?? 'CHF',
    totalBase: toBaseAmount(totals.total, fxRate),
    dateInvoice: row.date_invoice,
    dateDue: row.date_due,
    paymentTermDays: daysBetween(row.date_invoice, row.date_due),
    description: row.description,
    bankRef: row.bank_ref,
    ledgerDate: row.ledger_date,
    items: mapped,
    totals,
    entries,
    shared: row.shared,
  };
}

/** Accepts a uuid or the numeric per-instance id. */
export type InvoiceKey = string | number;

/**
 * The invoice's row; with `lock`, the invoice row is first locked (`FOR UPDATE`) until the end of the
 * transaction, so a status change reads the state no parallel change can alter before it commits
 * (issue 11 §1). The read after the lock sees what a change that held it before committed.
 */
async function loadRow(tx: Tx, instanceId: string, key: InvoiceKey, lock = false): Promise<InvoiceRow> {
  if (lock) {
    await tx.query(`SELECT 1 FROM invoice WHERE instance_id = $1 AND ${typeof key === 'number' ? 'id = $2' : 'uuid = $2'} FOR UPDATE`, [instanceId, key]);
  }
  const [row] = await selectInvoices(tx, instanceId, typeof key === 'number' ? { ids: [key] } : { uuids: [key] });
  if (!row) throw notFound(`invoice ${key}`);
  return row;
}

/** One invoice with its items and totals; 404 when unknown in the instance. */
export async function getInvoice(tx: Tx, instanceId: string, key: InvoiceKey): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, key);
  return toInvoice(row, await selectItems(tx, instanceId, [row.uuid]));
}

/** Invoices with items and totals, newest first. */
export async function listInvoices(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter,
  page?: { page: number; pageSize: number },
): Promise<{ data: Invoice[]; total: number }> {
  const all = await selectInvoices(tx, instanceId, filter);
  const rows = page ? all.slice((page.page - 1) * page.pageSize, page.page * page.pageSize) : all;
  const items = rows.length ? await selectItems(tx, instanceId, rows.map((row) => row.uuid)) : [];
  const byInvoice = new Map<string, InvoiceItemRow[]>();
  for (const item of items) byInvoice.set(item.invoice_uuid, [...(byInvoice.get(item.invoice_uuid) ?? []), item]);
  return { data: rows.map((row) => toInvoice(row, byInvoice.get(row.uuid) ?? [])), total: all.length };
}

async function instanceSettings(tx: Tx, instanceId: string): Promise<{ vatRate: string | null; currency: CurrencyCode }> {
  const [row] = await tx.query<{ vat_rate: string | null; currency_id: number }>(
    'SELECT vat_rate::text AS vat_rate, currency_id FROM instance WHERE id = $1',
    [instanceId],
  );
  return { vatRate: row?.vat_rate ?? null, currency: currencyCodeById(row?.currency_id ?? 1) ?? 'CHF' };
}

/** Field → message; collected so one answer names every bad field (docs/api.md "Errors"). */
type Problems = Record<string, string>;

function throwProblems(problems: Problems): void {
  const entries = Object.entries(problems);
  if (entries.length === 0) return;
  const [field, message] = entries[0]!;
  throw new AppError('validation', entries.length === 1 ? message : `${field}: ${message}`, problems);
}

/** The VAT rates an invoice or line may carry: the instance's rate and the Swiss ones (fractions). */
function allowedVatRates(instanceRate: string | null): string[] {
  return [...new Set([...(instanceRate ? [normalizeVatRate(instanceRate)] : []), ...INVOICE_VAT_RATES])];
}
const VAT_MESSAGE = 'VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0';

/** Revenue accounts (AccountType revenue) among `ids`, by id. */
async function revenueAccounts(tx: Tx, instanceId: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await tx.query<{ id: number }>('SELECT id FROM ledger_account WHERE instance_id = $1 AND id = ANY($2::int[]) AND type_id = $3', [
    instanceId,
    [...new Set(ids)],
    AccountType.revenue,
  ]);
  return new Set(rows.map((row) => row.id));
}

/**
 * Line rules beyond the schema, field names under `prefix`: discounts (invoiceItemProblems), the
 * line's VAT rate, its revenue account (one of the instance's revenue accounts) and currency.
 */
async function itemProblems(
  tx: Tx,
  instanceId: string,
  items: readonly ItemData[],
  context: { currency: CurrencyCode; vatRates: readonly string[] },
  prefix: (index: number) => string,
): Promise<Problems> {
  const problems: Problems = {};
  const revenue = await revenueAccounts(
    tx,
    instanceId,
    items.flatMap((item) => (item.account ? [item.account.id] : [])),
  );
  items.forEach((item, index) => {
    for (const [field, message] of Object.entries(invoiceItemProblems(item))) problems[`${prefix(index)}${field}`] ??= message;
    if (item.vat != null && !context.vatRates.some((rate) => toMoney(rate).eq(toMoney(item.vat!)))) problems[`${prefix(index)}vat`] ??= VAT_MESSAGE;
    if (item.account && !revenue.has(item.account.id)) {
      problems[`${prefix(index)}account.id`] ??= 'choose one of your revenue ledger accounts (class 3)';
    }
    if (item.currency && item.currency !== context.currency) {
      problems[`${prefix(index)}currency`] ??= `a line is in the invoice currency (${context.currency})`;
    }
  });
  return problems;
}

/** Company, address (of that company) and payment profile (of the own company, IBAN or QR bill). */
async function partyProblems(
  tx: Tx,
  instanceId: string,
  data: Pick<InvoiceData, 'company' | 'address' | 'paymentProfile'>,
): Promise<{ problems: Problems; iban: string | null }> {
  const problems: Problems = {};
  const [company] = await tx.query('SELECT 1 FROM company WHERE instance_id = $1 AND uuid = $2', [instanceId, data.company.uuid]);
  if (!company) problems['company.uuid'] = 'company not found';
  const [address] = await tx.query('SELECT 1 FROM address WHERE instance_id = $1 AND id = $2 AND company_uuid = $3', [
    instanceId,
    data.address.id,
    data.company.uuid,
  ]);
  if (!address) problems['address.id'] = 'the address must be one of the company';
  const [profile] = await tx.query<{ type_id: number; iban: string | null; own: boolean; log_is_log: boolean }>(
    `SELECT p.type_id, p.iban, p.log_is_log, p.company_uuid = i.own_company_uuid AS own
       FROM payment_profile p JOIN instance i ON i.id = p.instance_id WHERE p.instance_id = $1 AND p.id = $2`,
    [instanceId, data.paymentProfile.id],
  );
  if (!profile || !profile.own || profile.log_is_log) {
    problems['paymentProfile.id'] = 'choose one of your own active payment profiles';
  } else if ((profile.type_id !== PaymentProfileType.Iban && profile.type_id !== PaymentProfileType.QrBill) || !profile.iban) {
    problems['paymentProfile.id'] = 'the payment profile must be an IBAN or QR bill account';
  }
  return { problems, iban: profile?.iban ?? null };
}

/**
 * Currency and exchange rate (issue #4 audit §6): an invoice in the books' currency has fxRate 1;
 * one in the other QR-bill currency needs fxRate > 0 (books' currency per unit). Returns the rate to
 * store or a problem on `fxRate`.
 */
function fxProblems(currency: CurrencyCode, base: CurrencyCode, fxRate: string | undefined): { fxRate: string; problems: Problems } {
  if (currency === base) {
    if (fxRate !== undefined && !toMoney(fxRate).eq(1)) {
      return { fxRate: '1', problems: { fxRate: `an invoice in ${base}, the currency of the books, has the exchange rate 1` } };
    }
    return { fxRate: '1', problems: {} };
  }
  if (fxRate === undefined) {
    return { fxRate: '1', problems: { fxRate: `give the exchange rate of the invoice: ${base} per 1 ${currency}` } };
  }
  return { fxRate, problems: {} };
}

/** Due date: given, or the invoice date + 30 days; never before the invoice date. */
function dueProblems(dateInvoice: string, dateDue: string): Problems {
  return dateDue < dateInvoice ? { dateDue: 'the due date cannot be before the invoice date' } : {};
}

const itemColumns = (item: ItemData, invoice: { currency: CurrencyCode; fxRate: string }): ItemColumns => ({
  label: item.name.trim(),
  quantity: item.amount,
  price: item.price,
  discount: item.discount == null || item.discount === '' ? null : item.discount,
  discountAbs: item.discountAbs == null || item.discountAbs === '' ? null : item.discountAbs,
  currencyId: Currency[invoice.currency],
  fxRate: invoice.fxRate,
  vatRate: item.vat == null ? null : item.vat,
  accountId: item.account?.id ?? null,
});

/** Everything insert and update check, collected; returns what to store. */
async function checkInvoice(
  tx: Tx,
  instanceId: string,
  data: {
    company: { uuid: string };
    address: { id: number };
    paymentProfile: { id: number };
    vat: string;
    currency: CurrencyCode;
    fxRate: string | undefined;
    dateInvoice: string;
    dateDue: string;
    items: readonly ItemData[];
  },
): Promise<{ iban: string; fxRate: string }> {
  const settings = await instanceSettings(tx, instanceId);
  const vatRates = allowedVatRates(settings.vatRate);
  const parties = await partyProblems(tx, instanceId, data);
  const fx = fxProblems(data.currency, settings.currency, data.fxRate);
  const problems: Problems = {
    ...parties.problems,
    ...(vatRates.some((rate) => toMoney(rate).eq(toMoney(data.vat))) ? {} : { vat: VAT_MESSAGE }),
    ...fx.problems,
    ...dueProblems(data.dateInvoice, data.dateDue),
    ...(await itemProblems(tx, instanceId, data.items, { currency: data.currency, vatRates }, (index) => `items.${index}.`)),
  };
  throwProblems(problems);
  return { iban: parties.iban!, fxRate: fx.fxRate };
}

/**
 * Creates a pending invoice with its lines. The payment reference is fixed here: a QR reference
 * from the id with a QR-IBAN, else an ISO 11649 creditor reference. Due date default: invoice date
 * + 30 days. 400 naming every bad field (`company.uuid`, `address.id`, `paymentProfile.id`, `vat`,
 * `fxRate`, `dateDue`, `items.N.*`) otherwise; nothing is written then.
 */
export async function insertInvoice(tx: Tx, instanceId: string, userId: string | null, data: InvoiceData): Promise<Invoice> {
  const settings = await instanceSettings(tx, instanceId);
  const vat = data.vat ?? settings.vatRate ?? '0.081';
  const currency = data.currency ?? 'CHF';
  const dateDue = data.dateDue ?? addDays(data.dateInvoice, DEFAULT_PAYMENT_TERM_DAYS);
  const items = data.items ?? [];
  const { iban, fxRate } = await checkInvoice(tx, instanceId, { ...data, vat, currency, fxRate: data.fxRate, dateDue, items });
  const [next] = await tx.query<{ id: number }>("SELECT next_ids($1, 'invoice') AS id", [instanceId]);
  const id = next!.id;
  const reference = isQrIban(iban) ? invoiceQrReference(id) : invoiceCreditorReference(id);
  const [row] = await tx.query<{ uuid: string }>(
    `INSERT INTO invoice (instance_id, id, company_uuid, address_id, payment_profile_id, vat_rate, currency_id, fx_rate, date_invoice,
                          date_due, description, payment_reference, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING uuid`,
    [
      instanceId,
      id,
      data.company.uuid,
      data.address.id,
      data.paymentProfile.id,
      vat,
      Currency[currency],
      fxRate,
      data.dateInvoice,
      dateDue,
      data.description?.trim() ?? '',
      reference,
      userId,
    ],
  );
  for (const item of items) await insertItem(tx, instanceId, row!.uuid, itemColumns(item, { currency, fxRate }));
  return getInvoice(tx, instanceId, row!.uuid);
}

function assertPending(row: InvoiceRow): void {
  if (row.status_id !== InvoiceStatus.pending) {
    throw conflict(`invoice ${formatReferenceNumber(row.id)} is ${STATUS_NAMES[row.status_id]}: only pending invoices can be changed`);
  }
}

/**
 * Changes the head of a pending invoice (409 once sent); lines given replace all lines. A new invoice
 * date without a due date keeps the payment term (days). Lines keep the invoice's currency and rate.
 */
export async function updateInvoice(tx: Tx, instanceId: string, key: InvoiceKey, data: Partial<InvoiceData>): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, key);
  assertPending(row);
  const dateInvoice = data.dateInvoice ?? row.date_invoice;
  const dateDue =
    data.dateDue === null
      ? addDays(dateInvoice, DEFAULT_PAYMENT_TERM_DAYS)
      : (data.dateDue ?? (data.dateInvoice ? addDays(dateInvoice, daysBetween(row.date_invoice, row.date_due)) : row.date_due));
  const currency = data.currency ?? currencyCodeById(row.currency_id) ?? 'CHF';
  const currencyChanged = currency !== (currencyCodeById(row.currency_id) ?? 'CHF');
  const merged = {
    company: data.company ?? { uuid: row.company_uuid },
    address: data.address ?? { id: row.address_id },
    paymentProfile: data.paymentProfile ?? { id: row.payment_profile_id },
    vat: data.vat ?? row.vat_rate,
    currency,
    // A currency change needs its own rate; otherwise the stored one stays.
    fxRate: data.fxRate ?? (currencyChanged ? undefined : row.fx_rate),
    dateInvoice,
    dateDue,
    items: data.items ?? (await selectItems(tx, instanceId, [row.uuid])).map(toItem).map((item) => ({ ...item, currency: undefined })),
  };
  const { iban, fxRate } = await checkInvoice(tx, instanceId, merged);
  const reference = isQrIban(iban) ? invoiceQrReference(row.id) : invoiceCreditorReference(row.id);
  await tx.query(
    `UPDATE invoice SET company_uuid = $3, address_id = $4, payment_profile_id = $5, vat_rate = $6, currency_id = $7, fx_rate = $8,
            date_invoice = $9, date_due = $10, description = $11, payment_reference = $12
      WHERE instance_id = $1 AND uuid = $2`,
    [
      instanceId,
      row.uuid,
      merged.company.uuid,
      merged.address.id,
      merged.paymentProfile.id,
      merged.vat,
      Currency[currency],
      fxRate,
      dateInvoice,
      dateDue,
      data.description?.trim() ?? row.description,
      reference,
    ],
  );
  if (data.items) {
    await tx.query('DELETE FROM invoice_item WHERE instance_id = $1 AND invoice_uuid = $2', [instanceId, row.uuid]);
    for (const item of data.items) await insertItem(tx, instanceId, row.uuid, itemColumns(item, { currency, fxRate }));
  } else {
    await tx.query('UPDATE invoice_item SET currency_id = $3, fx_rate = $4 WHERE instance_id = $1 AND invoice_uuid = $2', [
      instanceId,
      row.uuid,
      Currency[currency],
      fxRate,
    ]);
  }
  return getInvoice(tx, instanceId, row.uuid);
}

/** Deletes a pending invoice and its lines; 409 once it has been sent. */
export async function deleteInvoice(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  const row = await loadRow(tx, instanceId, uuid);
  assertPending(row);
  await tx.query('DELETE FROM invoice WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid]);
}

/** Line checks for the single-line calls, fields named as in their body (`discountAbs`, `account.id`). */
async function checkOneItem(tx: Tx, instanceId: string, row: InvoiceRow, item: ItemData): Promise<void> {
  const settings = await instanceSettings(tx, instanceId);
  const currency = currencyCodeById(row.currency_id) ?? 'CHF';
  throwProblems(await itemProblems(tx, instanceId, [item], { currency, vatRates: allowedVatRates(settings.vatRate) }, () => ''));
}

/** Adds a line to a pending invoice; returns the invoice. */
export async function addItem(tx: Tx, instanceId: string, invoiceUuid: string, item: ItemData): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, invoiceUuid);
  assertPending(row);
  await checkOneItem(tx, instanceId, row, item);
  await insertItem(tx, instanceId, row.uuid, itemColumns(item, { currency: currencyCodeById(row.currency_id) ?? 'CHF', fxRate: row.fx_rate }));
  return getInvoice(tx, instanceId, row.uuid);
}

async function loadItemInvoice(tx: Tx, instanceId: string, itemId: number): Promise<InvoiceRow> {
  const item = await selectItem(tx, instanceId, itemId);
  if (!item) throw notFound(`invoice item ${itemId}`);
  const row = await loadRow(tx, instanceId, item.invoice_uuid);
  assertPending(row);
  return row;
}

/** Replaces a line of a pending invoice; returns the invoice. */
export async function changeItem(tx: Tx, instanceId: string, itemId: number, item: ItemData): Promise<Invoice> {
  const row = await loadItemInvoice(tx, instanceId, itemId);
  await checkOneItem(tx, instanceId, row, item);
  await updateItem(tx, instanceId, itemId, itemColumns(item, { currency: currencyCodeById(row.currency_id) ?? 'CHF', fxRate: row.fx_rate }));
  return getInvoice(tx, instanceId, row.uuid);
}

/** Removes a line of a pending invoice; returns the invoice. */
export async function removeItem(tx: Tx, instanceId: string, itemId: number): Promise<Invoice> {
  const row = await loadItemInvoice(tx, instanceId, itemId);
  await tx.query('DELETE FROM invoice_item WHERE instance_id = $1 AND id = $2', [instanceId, itemId]);
  return getInvoice(tx, instanceId, row.uuid);
}

/** Receivable account: 1100, else the account with function type receivable. 409 when neither exists. */
async function receivableAccount(tx: Tx, instanceId: string): Promise<number> {
  const [account] = await tx.query<{ id: number }>(
    `SELECT id FROM ledger_account WHERE instance_id = $1 AND (number = '1100' OR function_type_id = 5)
      ORDER BY (number = '1100') DESC, number LIMIT 1`,
    [instanceId],
  );
  if (!account) throw conflict('no receivable account: add ledger account 1100 to the chart of accounts');
  return account.id;
}

export interface StatusChange {
  uuid: string;
  status: number;
  bankRef?: string | null | undefined;
  /** YYYY-MM-DD; default today. */
  ledgerDate?: string | undefined;
  /**
   * sent → paid of an invoice in another currency: what reached the bank in the books' currency,
   * 2 decimals; default total × the invoice's fxRate (no exchange difference).
   */
  amountBase?: string | null | undefined;
}

const ALLOWED: Record<number, number[]> = { 1: [2], 2: [3, 4], 3: [], 4: [] };

/** A signed amount as a posting: positive → `direction`, negative → the other side. */
const signed = (amount: Money, direction: 1 | -1): { amount: Money; direction: 1 | -1 } =>
  amount.isNegative() ? { amount: amount.negated(), direction: (-direction) as 1 | -1 } : { amount, direction };

/**
 * The postings of sending (issue #4 §3, audit §3 and §6): debit receivable = total; credit revenue
 * per account (each line's chosen account, else the account of its VAT rate; the 5-Rappen rounding
 * goes with the largest revenue); credit output VAT per rate. An invoice in another currency than
 * the books' posts each line as originalAmount × fxRate (half-up to the cent); what that rounding
 * leaves between debit and credit goes to the largest revenue account in the books' currency.
 */
async function sentPostings(tx: Tx, instanceId: string, invoice: Invoice): Promise<PostingInput[]> {
  const base = invoice.baseCurrency;
  const revenue = new Map<number, Money>();
  const defaultRevenue = new Map<string, number>();
  for (const item of invoice.items) {
    const rate = item.vat ?? invoice.vat;
    let accountId = item.account?.id;
    if (accountId === undefined) {
      const key = normalizeVatRate(rate);
      accountId = defaultRevenue.get(key) ?? (await chartAccountId(tx, instanceId, vatAccountsFor(rate).revenue, base));
      defaultRevenue.set(key, accountId);
    }
    revenue.set(accountId, (revenue.get(accountId) ?? toMoney(0)).plus(toMoney(item.total)));
  }
  // The largest revenue (first on a tie) takes the rounding differences.
  const [largest] = [...revenue.entries()].reduce<[number, Money] | [undefined, Money]>(
    (best, [id, amount]) => (best[0] === undefined || amount.gt(best[1]) ? [id, amount] : best),
    [undefined, toMoney(-1)],
  );
  if (largest === undefined) throw fieldError('uuid', 'an invoice without lines cannot be sent');
  revenue.set(largest, revenue.get(largest)!.plus(toMoney(invoice.totals.rounding)));

  const foreign = invoice.currency !== base;
  const posting = (accountId: number, amount: Money, direction: 1 | -1): PostingInput => {
    const side = signed(amount, direction);
    return foreign
      ? { accountId, direction: side.direction, currency: invoice.currency, originalAmount: toFixedAmount(side.amount), exchangeRate: invoice.fxRate }
      : { accountId, direction: side.direction, amount: toFixedAmount(side.amount) };
  };
  const receivable = await receivableAccount(tx, instanceId);
  const lines: PostingInput[] = [posting(receivable, toMoney(invoice.totals.total), 1)];
  const credits: Money[] = [];
  for (const [accountId, amount] of revenue) {
    if (amount.isZero()) continue;
    lines.push(posting(accountId, amount, -1));
    credits.push(amount);
  }
  for (const vatLine of invoice.totals.vatLines) {
    const accounts = vatAccountsFor(vatLine.rate);
    if (toMoney(vatLine.vat).isZero() || !accounts.vat) continue;
    lines.push(posting(await chartAccountId(tx, instanceId, accounts.vat, base, 2), toMoney(vatLine.vat), -1));
    credits.push(toMoney(vatLine.vat));
  }
  if (foreign) {
    const debitBase = toMoney(invoice.totalBase);
    const creditBase = credits.reduce((sum, amount) => sum.plus(toMoney(toBaseAmount(toFixedAmount(amount), invoice.fxRate))), toMoney(0));
    const difference = debitBase.minus(creditBase);
    if (!difference.isZero()) {
      const side = signed(difference, -1);
      lines.push({
        accountId: largest,
        direction: side.direction,
        amount: toFixedAmount(side.amount),
        description: `Rounding of the conversion to ${base}`,
      });
    }
  }
  return lines;
}

/**
 * Changes an invoice's status and posts its journal entry at `ledgerDate` (spec §4, issue #4 §3):
 * pending → sent: see `sentPostings` (receivable 1100; revenue per line account, default by VAT rate
 * 3200/3201/3202/3203; VAT per rate 2200/2201/2202). Lines take the invoice's currency and fxRate
 * (CHF and 1 for a CHF invoice, spec §9).
 * sent → paid: debit the payment profile's ledger account, credit receivable (bankRef kept); an
 * invoice in another currency with `amountBase` (what the bank received in the books' currency)
 * books the realized exchange difference on 6942/6952 (accounting/settlement.service.ts).
 * sent → denied: the reverse of the sent entry. Paid and denied are dated on or after the sent
 * ledger date (400 on `ledgerDate`). Anything else: 409. The lock date applies (409).
 * The invoice row is locked first, so parallel identical calls post once: the others answer 409
 * `already_done` ("invoice 000042 is already paid").
 */
export async function changeStatus(tx: Tx, instanceId: string, userId: string | null, change: StatusChange): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, change.uuid, true);
  const from = row.status_id;
  if (from === change.status) {
    // A repeat (double click, retry, a parallel request that won the lock): nothing more to post.
    throw alreadyDone(`invoice ${formatReferenceNumber(row.id)} is already ${STATUS_NAMES[from]}`, { status: `already ${STATUS_NAMES[from]}` });
  }
  if (!ALLOWED[from]?.includes(change.status)) {
    throw conflict(
      `invoice ${formatReferenceNumber(row.id)} cannot go from ${STATUS_NAMES[from]} to ${STATUS_NAMES[change.status] ?? change.status}: ` +
        'allowed are pending → sent, sent → paid and sent → denied',
      { status: `not allowed from ${STATUS_NAMES[from]}` },
    );
  }
  const ledgerDate = change.ledgerDate ?? new Date().toISOString().slice(0, 10);
  if (from === InvoiceStatus.sent && row.ledger_date && ledgerDate < row.ledger_date) {
    throw fieldError(
      'ledgerDate',
      `the ledger date must be on or after the date the invoice was sent (${row.ledger_date})`,
    );
  }
  const invoice = toInvoice(row, await selectItems(tx, instanceId, [row.uuid]));
  const ref = formatReferenceNumber(row.id);
  if (change.amountBase != null && change.status !== InvoiceStatus.paid) {
    throw fieldError('amountBase', 'the amount received is given only when the invoice is paid');
  }
  let entryId: number;
  let column: 'sent_entry_id' | 'paid_entry_id' | 'denied_entry_id';
  if (change.status === InvoiceStatus.sent) {
    if (invoice.items.length === 0) throw fieldError('uuid', 'an invoice without lines cannot be sent');
    if (toMoney(invoice.totals.total).lte(0)) throw fieldError('uuid', 'the invoice total must be greater than 0');
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Invoice ${ref} ${row.company_name}`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: await sentPostings(tx, instanceId, invoice),
    });
    column = 'sent_entry_id';
    await tx.query('UPDATE invoice_item SET currency_id = $3, fx_rate = $4 WHERE instance_id = $1 AND invoice_uuid = $2', [
      instanceId,
      row.uuid,
      Currency[invoice.currency],
      invoice.fxRate,
    ]);
  } else if (change.status === InvoiceStatus.paid) {
    if (row.profile_account_id === null) throw conflict('the payment profile has no ledger account to book the payment on');
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Payment ${ref} ${row.company_name}${change.bankRef ? ` (${change.bankRef})` : ''}`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      // The receivable goes back to zero at the invoice's rate; the bank gets what it received.
      lines: await settlementPostings(tx, instanceId, {
        kind: 'receivable',
        documentAccountId: await receivableAccount(tx, instanceId),
        bankAccountId: row.profile_account_id,
        currency: invoice.currency,
        originalAmount: invoice.totals.total,
        bookedRate: invoice.fxRate,
        base: invoice.baseCurrency,
        settledBase: change.amountBase,
        field: 'amountBase',
      }),
    });
    column = 'paid_entry_id';
  } else {
    const sent = await getJournalEntry(tx, instanceId, row.sent_entry_id!);
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Reversal of invoice ${ref} ${row.company_name} (denied)`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: sent.entryAccounts.map((line): PostingInput => {
        const direction = (line.direction === 1 ? -1 : 1) as 1 | -1;
        return line.currency !== invoice.baseCurrency
          ? { accountId: line.account.id, direction, currency: line.currency, originalAmount: line.originalAmount, exchangeRate: line.exchangeRate, description: line.description }
          : { accountId: line.account.id, direction, amount: line.amount, description: line.description };
      }),
    });
    column = 'denied_entry_id';
  }
  await tx.query(
    `UPDATE invoice SET status_id = $3, ${column} = $4, ledger_date = $5, bank_ref = COALESCE($6, bank_ref) WHERE instance_id = $1 AND uuid = $2`,
    [instanceId, row.uuid, change.status, entryId, ledgerDate, change.bankRef?.trim() || null],
  );
  return getInvoice(tx, instanceId, row.uuid);
}

type Buckets = { notDue: string; d0_30: string; d31_60: string; d61_90: string; d90plus: string };

export interface DebtorRow {
  company: { uuid: string; name: string };
  invoices: number;
  /**
   * Open amounts in the books' currency by days overdue (days after the due date) at `date`:
   * not yet due, 0–30, 31–60, 61–90, > 90.
   */
  buckets: Buckets;
  total: string;
  /** The open invoices behind the row. */
  documents: { uuid: string; refNumber: string; dateInvoice: string; dateDue: string; daysOverdue: number; currency: CurrencyCode; total: string; totalBase: string }[];
}

const BUCKET_KEYS = ['notDue', 'd0_30', 'd31_60', 'd61_90', 'd90plus'] as const;

/** Bucket of an invoice `daysOverdue` days after its due date (negative: not yet due). */
function bucketOf(daysOverdue: number): number {
  if (daysOverdue < 0) return 0;
  if (daysOverdue <= 30) return 1;
  if (daysOverdue <= 60) return 2;
  if (daysOverdue <= 90) return 3;
  return 4;
}

/**
 * Open receivables (status sent) per customer with ageing buckets at `date` (default today) by days
 * overdue, counted from the due date; amounts in the books' currency (total × fxRate).
 */
export async function listDebtors(
  tx: Tx,
  instanceId: string,
  date?: string,
): Promise<{ date: string; currency: CurrencyCode; data: DebtorRow[]; totals: Buckets & { total: string } }> {
  const at = date ?? new Date().toISOString().slice(0, 10);
  const { data: open } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent });
  const zero = () => BUCKET_KEYS.map(() => toMoney(0));
  const byCompany = new Map<string, { company: { uuid: string; name: string }; sums: Money[]; documents: DebtorRow['documents'] }>();
  const grand = zero();
  for (const invoice of [...open].sort((a, b) => a.dateDue.localeCompare(b.dateDue) || a.id - b.id)) {
    const daysOverdue = daysBetween(invoice.dateDue, at);
    const bucket = bucketOf(daysOverdue);
    const entry = byCompany.get(invoice.company.uuid) ?? { company: invoice.company, sums: zero(), documents: [] };
    entry.sums[bucket] = entry.sums[bucket]!.plus(toMoney(invoice.totalBase));
    grand[bucket] = grand[bucket]!.plus(toMoney(invoice.totalBase));
    entry.documents.push({
      uuid: invoice.uuid,
      refNumber: invoice.refNumber,
      dateInvoice: invoice.dateInvoice,
      dateDue: invoice.dateDue,
      daysOverdue,
      currency: invoice.currency,
      total: invoice.totals.total,
      totalBase: invoice.totalBase,
    });
    byCompany.set(invoice.company.uuid, entry);
  }
  const buckets = (sums: readonly Money[]) => Object.fromEntries(BUCKET_KEYS.map((key, index) => [key, toFixedAmount(sums[index]!)])) as Buckets;
  const sum = (sums: readonly Money[]) => toFixedAmount(sums.reduce((a, b) => a.plus(b), toMoney(0)));
  const data = [...byCompany.values()]
    .map((entry) => ({ company: entry.company, invoices: entry.documents.length, buckets: buckets(entry.sums), total: sum(entry.sums), documents: entry.documents }))
    .sort((a, b) => a.company.name.localeCompare(b.company.name));
  const { currency } = await instanceSettings(tx, instanceId);
  return { date: at, currency, data, totals: { ...buckets(grand), total: sum(grand) } };
}

export interface ImportError {
  /** 1-based row of the request's `data`. */
  row: number;
  field: string;
  message: string;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The customer of an import row: a uuid, a Swiss UID (CHE-123.456.789, with or without MWST/TVA/IVA)
 * or the exact name (case and surrounding blanks ignored). Exactly one of the instance's companies
 * other than the own company must match; the answer is its uuid or the row's message.
 */
async function findCustomer(tx: Tx, instanceId: string, key: string): Promise<{ uuid: string } | { message: string }> {
  const value = key.trim();
  let rows: { uuid: string }[];
  let what: string;
  if (UUID_PATTERN.test(value)) {
    what = 'uuid';
    rows = await tx.query<{ uuid: string }>(
      `SELECT c.uuid FROM company c JOIN instance i ON i.id = c.instance_id
        WHERE c.instance_id = $1 AND c.uuid = $2::uuid AND c.uuid IS DISTINCT FROM i.own_company_uuid`,
      [instanceId, value],
    );
  } else if (/^CHE/i.test(value) && isValidSwissUid(value)) {
    what = 'UID';
    const digits = value.replace(/\D/g, '');
    rows = await tx.query<{ uuid: string }>(
      `SELECT c.uuid FROM company c JOIN instance i ON i.id = c.instance_id
        WHERE c.instance_id = $1 AND regexp_replace(coalesce(c.uid, ''), '[^0-9]', '', 'g') = $2 AND c.uuid IS DISTINCT FROM i.own_company_uuid`,
      [instanceId, digits],
    );
  } else {
    what = 'name';
    rows = await tx.query<{ uuid: string }>(
      `SELECT c.uuid FROM company c JOIN instance i ON i.id = c.instance_id
        WHERE c.instance_id = $1 AND lower(btrim(c.name)) = lower($2) AND c.uuid IS DISTINCT FROM i.own_company_uuid`,
      [instanceId, value],
    );
  }
  if (rows.length === 1) return rows[0]!;
  if (rows.length === 0) return { message: `no customer with this ${what}` };
  return { message: `${rows.length} customers have this ${what}: give the UID or the uuid` };
}

/** Header fields of an import row that all rows of one invoice must share when they give them. */
const HEADER_FIELDS = ['addressId', 'paymentProfileId', 'dateInvoice', 'dateDue', 'vat', 'currency', 'fxRate', 'description'] as const;

/**
 * Imports invoices from rows (one per line; rows with the same `invoice` key form one invoice), all
 * or nothing (issue #4 §3, audit §1). Every field of every row is checked with the domain schema
 * (`invoiceImportRowSchema`, the line fields of `invoiceItemSchema`) and the rules of
 * `insertInvoice`; every problem is reported against its row (1-based) and field, and with any
 * problem nothing is written and the answer is 400 `{ error, fields: { 'data.N.field' }, rows }`.
 * The customer is found by uuid, UID or exact name (one match, else a row error); a missing address
 * is the customer's first; a missing payment profile the own company's first active IBAN/QR bill one.
 */
export async function importInvoices(tx: Tx, instanceId: string, userId: string | null, rows: readonly unknown[]): Promise<{ created: Invoice[] }> {
  const errors: ImportError[] = [];
  const add = (row: number, field: string, message: string) => {
    if (!errors.some((error) => error.row === row && error.field === field)) errors.push({ row, field, message });
  };
  const [defaultProfile] = await tx.query<{ id: number }>(
    `SELECT p.id FROM payment_profile p JOIN instance i ON i.id = p.instance_id
      WHERE p.instance_id = $1 AND p.company_uuid = i.own_company_uuid AND NOT p.log_is_log AND p.type_id IN (1, 2) AND p.iban IS NOT NULL
      ORDER BY p.id LIMIT 1`,
    [instanceId],
  );
  const customers = new Map<string, { uuid: string } | { message: string }>();
  const accounts = new Map<string, { id: number } | undefined>();
  const groups = new Map<string, { rows: number[]; first: InvoiceImportRow; companyUuid: string; data: InvoiceData }>();

  for (const [index, raw] of rows.entries()) {
    const number = index + 1;
    const parsed = invoiceImportRowSchema.safeParse(raw);
    if (!parsed.success) {
      for (const [field, message] of Object.entries(fieldErrors(parsed.error))) add(number, field === '_' ? 'row' : field, message);
      continue;
    }
    const row = parsed.data;
    const key = row.company ?? row.companyUuid;
    if (key === undefined || key === '') {
      add(number, 'company', 'give the customer: its name, UID or uuid');
      continue;
    }
    if (row.company !== undefined && row.companyUuid !== undefined) {
      add(number, 'companyUuid', 'give the customer once: company or companyUuid');
      continue;
    }
    const field = row.company !== undefined ? 'company' : 'companyUuid';
    if (!customers.has(key)) customers.set(key, await findCustomer(tx, instanceId, key));
    const customer = customers.get(key)!;
    if ('message' in customer) {
      add(number, field, customer.message);
      continue;
    }
    const item: ItemData = {
      name: row.name,
      amount: row.amount,
      price: row.price,
      discount: row.discount,
      discountAbs: row.discountAbs,
    };
    let group = groups.get(row.invoice);
    if (!group) {
      const [address] = await tx.query<{ id: number }>(
        'SELECT id FROM address WHERE instance_id = $1 AND company_uuid = $2 AND ($3::int IS NULL OR id = $3) ORDER BY id LIMIT 1',
        [instanceId, customer.uuid, row.addressId ?? null],
      );
      if (!address) {
        add(number, row.addressId ? 'addressId' : field, row.addressId ? 'the address must be one of the customer' : 'the customer has no address');
        continue;
      }
      group = {
        rows: [],
        first: row,
        companyUuid: customer.uuid,
        data: {
          company: { uuid: customer.uuid },
          address: { id: address.id },
          paymentProfile: { id: row.paymentProfileId ?? defaultProfile?.id ?? 0 },
          vat: row.vat,
          currency: row.currency,
          fxRate: row.fxRate,
          dateInvoice: row.dateInvoice,
          dateDue: row.dateDue,
          description: row.description,
          items: [],
        },
      };
      groups.set(row.invoice, group);
    } else {
      const first = group.rows[0]!;
      if (group.companyUuid !== customer.uuid) {
        add(number, field, `invoice ${row.invoice} has another customer on row ${first}`);
        continue;
      }
      const differing = HEADER_FIELDS.find((name) => row[name] !== undefined && String(row[name]) !== String(group!.first[name] ?? ''));
      if (differing) {
        add(number, differing, `differs from row ${first} of invoice ${row.invoice}`);
        continue;
      }
    }
    if (row.account) {
      if (!accounts.has(row.account)) accounts.set(row.account, (await listLedgerAccounts(tx, instanceId, { numbers: [row.account] }))[0]);
      const account = accounts.get(row.account);
      if (!account) {
        add(number, 'account', `no ledger account ${row.account}`);
        continue;
      }
      item.account = { id: account.id };
    }
    group.rows.push(number);
    group.data.items!.push(item);
  }

  // The invoice rules, per invoice; fields named by the row they come from.
  const rowField: Record<string, string> = {
    'company.uuid': 'companyUuid',
    'address.id': 'addressId',
    'paymentProfile.id': 'paymentProfileId',
    'account.id': 'account',
  };
  const settings = await instanceSettings(tx, instanceId);
  for (const group of groups.values()) {
    const data = group.data;
    const vat = data.vat ?? settings.vatRate ?? '0.081';
    const currency = data.currency ?? 'CHF';
    const dateDue = data.dateDue ?? addDays(data.dateInvoice, DEFAULT_PAYMENT_TERM_DAYS);
    try {
      await checkInvoice(tx, instanceId, { ...data, vat, currency, fxRate: data.fxRate, dateDue, items: data.items ?? [] });
    } catch (error) {
      if (!(error instanceof AppError) || !error.fields) throw error;
      for (const [path, message] of Object.entries(error.fields)) {
        const item = /^items\.(\d+)\.(.+)$/.exec(path);
        const row = item ? group.rows[Number(item[1])]! : group.rows[0]!;
        const name = item ? item[2]! : path;
        add(row, rowField[name] ?? name, message);
      }
    }
  }
  if (errors.length) {
    errors.sort((a, b) => a.row - b.row);
    const first = errors[0]!;
    throw new AppError(
      'validation',
      `${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}, nothing was imported; row ${first.row}: ${first.field}: ${first.message}`,
      Object.fromEntries(errors.map((error) => [`data.${error.row - 1}.${error.field}`, error.message])),
      { rows: errors },
    );
  }
  const created: Invoice[] = [];
  for (const group of groups.values()) created.push(await insertInvoice(tx, instanceId, userId, group.data));
  return { created };
}

// ------------------------------------------------------------------------------------------------
// Share links
// ------------------------------------------------------------------------------------------------

const hashKey = (key: string) => createHash('sha256').update(key).digest();

/** Encodes the share link token: base64url of JSON {uuid, key} (spec §3 "Public share link"). */
export const encodeShareToken = (uuid: string, key: string) => Buffer.from(JSON.stringify({ uuid, key })).toString('base64url');

export function decodeShareToken(token: string): { uuid: string; key: string } | null {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value && typeof (value as { uuid?: unknown }).uuid === 'string' && typeof (value as { key?: unknown }).key === 'string') {
      return value as { uuid: string; key: string };
    }
  } catch {
    // fall through
  }
  return null;
}

/** Creates a new share key for an invoice (earlier keys are revoked); returns the token. */
export async function shareInvoice(tx: Tx, instanceId: string, uuid: string): Promise<{ token: string }> {
  await loadRow(tx, instanceId, uuid);
  const key = randomBytes(24).toString('base64url');
  await tx.query('DELETE FROM invoice_share WHERE instance_id = $1 AND invoice_uuid = $2', [instanceId, uuid]);
  await tx.query('INSERT INTO invoice_share (key_hash, instance_id, invoice_uuid) VALUES ($1, $2, $3)', [hashKey(key), instanceId, uuid]);
  return { token: encodeShareToken(uuid, key) };
}

/** Revokes every share key of an invoice. */
export async function revokeShare(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  await loadRow(tx, instanceId, uuid);
  await tx.query('DELETE FROM invoice_share WHERE instance_id = $1 AND invoice_uuid = $2', [instanceId, uuid]);
}

/** The instance of a valid share token (looked up as bilan_auth), or null. */
export async function resolveShare(authTx: Tx, token: string): Promise<{ instanceId: string; uuid: string } | null> {
  const decoded = decodeShareToken(token);
  if (!decoded) return null;
  const [row] = await authTx.query<{ instance_id: string }>('SELECT instance_id FROM invoice_share WHERE key_hash = $1 AND invoice_uuid::text = $2', [
    hashKey(decoded.key),
    decoded.uuid,
  ]);
  return row ? { instanceId: row.instance_id, uuid: decoded.uuid } : null;
}

/** Number of invoices of the instance (dashboard counts). */
export async function countInvoices(tx: Tx, instanceId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM invoice WHERE instance_id = $1', [instanceId]);
  return row?.n ?? 0;
}

/** The own company (creditor) with its first address, for the PDF. */
export async function ownCompany(tx: Tx, instanceId: string) {
  const [row] = await tx.query<{
    name: string;
    uid: string | null;
    vat_number: string | null;
    street: string | null;
    house_number: string | null;
    zip: string | null;
    city: string | null;
    country_id: number | null;
  }>(
    `SELECT c.name, c.uid, i.vat_number, a.street, a.house_number, a.zip, a.city, a.country_id
       FROM instance i JOIN company c ON c.instance_id = i.id AND c.uuid = i.own_company_uuid
       LEFT JOIN LATERAL (SELECT * FROM address x WHERE x.instance_id = i.id AND x.company_uuid = c.uuid ORDER BY x.id LIMIT 1) a ON true
      WHERE i.id = $1`,
    [instanceId],
  );
  return row ?? null;
}

/** What the invoice form offers: customers with their addresses, own IBAN/QR bill profiles, VAT rates. */
export async function formOptions(tx: Tx, instanceId: string) {
  const companies = await tx.query<{ uuid: string; name: string; own: boolean }>(
    `SELECT c.uuid, c.name, c.uuid = i.own_company_uuid AS own FROM company c JOIN instance i ON i.id = c.instance_id
      WHERE c.instance_id = $1 ORDER BY lower(c.name)`,
    [instanceId],
  );
  const addresses = await tx.query<{ id: number; company_uuid: string; street: string; house_number: string | null; zip: string; city: string; country_id: number }>(
    'SELECT id, company_uuid, street, house_number, zip, city, country_id FROM address WHERE instance_id = $1 ORDER BY id',
    [instanceId],
  );
  const profiles = await tx.query<{ id: number; type_id: number; iban: string; account_id: number | null }>(
    `SELECT p.id, p.type_id, p.iban, p.account_id FROM payment_profile p JOIN instance i ON i.id = p.instance_id
      WHERE p.instance_id = $1 AND p.company_uuid = i.own_company_uuid AND NOT p.log_is_log AND p.type_id IN (1, 2) AND p.iban IS NOT NULL
      ORDER BY p.id`,
    [instanceId],
  );
  const settings = await instanceSettings(tx, instanceId);
  const vatRate = settings.vatRate ? normalizeVatRate(settings.vatRate) : null;
  const vatRates = allowedVatRates(settings.vatRate);
  const revenue = await listLedgerAccounts(tx, instanceId, { type: AccountType.revenue });
  return {
    companies: companies
      .filter((c) => !c.own)
      .map((c) => ({
        uuid: c.uuid,
        name: c.name,
        addresses: addresses
          .filter((a) => a.company_uuid === c.uuid)
          .map((a) => ({ id: a.id, street: a.street, houseNumber: a.house_number, zip: a.zip, city: a.city, country: { id: a.country_id } })),
      })),
    paymentProfiles: profiles.map((p) => ({ id: p.id, type: p.type_id, iban: p.iban, qrIban: isQrIban(p.iban), account: p.account_id === null ? null : { id: p.account_id } })),
    vatRate,
    vatRates,
    /** The books' currency; an invoice in the other QR-bill currency needs an fxRate. */
    currency: settings.currency,
    currencies: [...INVOICE_CURRENCIES],
    /** Revenue ledger accounts a line may book on (class 3 and other revenue accounts). */
    revenueAccounts: revenue.map((a) => ({ id: a.id, number: a.number, name: a.name })),
    /** The revenue account each VAT rate books on when a line names none (created on first use). */
    defaultRevenue: vatRates.map((rate) => ({ rate, ...vatAccountsFor(rate).revenue })),
  };
}

/** The invoice a journal entry was posted for (entries of source 'invoice'); 404 otherwise. */
export async function invoiceOfEntry(tx: Tx, instanceId: string, entryId: number): Promise<{ uuid: string; refNumber: string }> {
  const [row] = await tx.query<{ uuid: string; id: number }>(
    `SELECT uuid, id FROM invoice WHERE instance_id = $1 AND $2 IN (sent_entry_id, paid_entry_id, denied_entry_id)`,
    [instanceId, entryId],
  );
  if (!row) throw notFound(`invoice of entry ${entryId}`);
  return { uuid: row.uuid, refNumber: formatReferenceNumber(row.id) };
}

export { lockSentInvoicesByReference } from './payment-reference.js';
export { invoicesOfCompany, type CompanyInvoice } from './company-documents.js';
