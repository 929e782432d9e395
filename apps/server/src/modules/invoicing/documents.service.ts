/** Invoices and their lines (spec §3 Invoice / Invoice item): loading, creation, changes of pending invoices, the form's options. */
import {
  AccountType,
  Currency,
  DEFAULT_PAYMENT_TERM_DAYS,
  InvoiceStatus,
  INVOICE_CURRENCIES,
  PaymentProfileType,
  addDays,
  currencyCodeById,
  daysBetween,
  formatReferenceNumber,
  invoiceCreditorReference,
  invoiceLineTotal,
  invoiceQrReference,
  invoiceTotals,
  isQrIban,
  normalizeVatRate,
  toBaseAmount,
  totalsOfLineTotals,
  vatAccountsFor,
  type CurrencyCode,
  type InvoiceTotals,
} from '@bilan/domain';
import type { Row, Tx } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import { invoicingError } from './invoicing.errors.js';
import { listLedgerAccounts } from '../accounting/accounting.service.js';
import {
  addressesById,
  companyHeadsByUuid,
  getCompany,
  listPaymentProfiles,
  type PaymentProfile,
} from '../companies/companies.service.js';
import { contactLines, instanceDefaults, instanceLetterhead } from '../instances/instances.service.js';
import {
  insertItem,
  selectInvoicePage,
  selectInvoices,
  selectInvoicesFull,
  selectItem,
  selectItems,
  storeInvoiceTotals,
  updateItem,
  type InvoiceFilter,
  type InvoiceFullRecord,
  type LinesRead,
  type InvoiceItemRecord,
  type InvoiceItemWithAccountRecord,
  type InvoiceWithPartiesRecord,
  type InvoiceRecord,
} from './invoicing.sql.js';
import {
  allowedVatRates,
  checkInvoice,
  itemColumns,
  itemProblems,
  throwProblems,
} from './invoice-checks.js';

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
  /** Spec §3's names of name, amount and price (same values). */
  label: string;
  quantity: string;
  rate: string;
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
export function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

/** A line as answered; `storedTotal` is its total as stored with the invoice's totals (migration 0052), else it is computed. */
export const toItem = (row: InvoiceItemRow, storedTotal?: string): InvoiceItem => ({
  id: row.id,
  name: row.label,
  amount: trimZeros(row.quantity),
  price: trimZeros(row.price),
  label: row.label,
  quantity: trimZeros(row.quantity),
  rate: trimZeros(row.price),
  discount: row.discount === null ? null : trimZeros(row.discount),
  discountAbs: row.discount_abs,
  vat: row.vat_rate === null ? null : normalizeVatRate(row.vat_rate),
  account: row.account_id === null ? null : { id: row.account_id, number: row.account_number ?? '', name: row.account_name ?? '' },
  currency: currencyCodeById(row.currency_id) ?? 'CHF',
  fxRate: trimZeros(row.fx_rate),
  logDateAdded: String(row.created_at),
  total: storedTotal ?? invoiceLineTotal({ quantity: row.quantity, price: row.price, discount: row.discount, discountAbs: row.discount_abs }),
});

/** An invoice's totals from its stored rate, currency, date and lines (what `toInvoice` answers as `totals`). */
function totalsOf(
  row: Pick<InvoiceRecord, 'vat_rate' | 'currency_id' | 'date_invoice'>,
  items: readonly Pick<InvoiceItemRecord, 'quantity' | 'price' | 'discount' | 'discount_abs' | 'vat_rate'>[],
): InvoiceTotals {
  return invoiceTotals(
    items.map((item) => ({
      quantity: trimZeros(item.quantity),
      price: trimZeros(item.price),
      discount: item.discount === null ? null : trimZeros(item.discount),
      discountAbs: item.discount_abs,
      vatRate: item.vat_rate === null ? null : normalizeVatRate(item.vat_rate),
    })),
    row.vat_rate,
    currencyCodeById(row.currency_id) ?? 'CHF',
    // The supply date chooses the rate (decision 019): the invoice date, Bilan has no service period.
    row.date_invoice,
  );
}

/**
 * An invoice's totals as invoicing stores them with it (migration 0052, `invoice.totals`): what
 * `toInvoice` answers as `totals` and `totalBase`, and each line's total by line id. `format`
 * names this shape; a stored value of another format is computed again, as a missing one is.
 */
export interface StoredTotals extends InvoiceTotals {
  format: 1;
  totalBase: string;
  lines: Record<string, string>;
}

/** A line as its total needs it, with its id (the stored totals keep each line's total by id). */
export type TotalsLine = Pick<InvoiceItemRecord, 'id' | 'quantity' | 'price' | 'discount' | 'discount_abs' | 'vat_rate'>;

/** What to store for an invoice read without stored totals: computed as `toInvoice` computes them (totalsOf, toBaseAmount). */
export function totalsToStore(row: Pick<InvoiceRecord, 'vat_rate' | 'currency_id' | 'date_invoice' | 'fx_rate'>, lines: readonly TotalsLine[]): StoredTotals {
  const totals = totalsOf(row, lines);
  const lineTotals = lines.map((line) => ({
    id: line.id,
    total: invoiceLineTotal({ quantity: line.quantity, price: line.price, discount: line.discount, discountAbs: line.discount_abs }),
  }));
  return storedShape(totals, toBaseAmount(totals.total, trimZeros(row.fx_rate)), lineTotals);
}

function storedShape(totals: InvoiceTotals, totalBase: string, lines: readonly { id: number; total: string }[]): StoredTotals {
  return { format: 1, ...totals, totalBase, lines: Object.fromEntries(lines.map((line) => [line.id, line.total])) };
}

/**
 * The stored totals when they are of this format and hold a total for each of `items`, else null
 * (compute them). `items` null: the lines were not read (a page without them), the format decides.
 */
function storedTotalsOf(row: Pick<InvoiceRecord, 'totals'>, items: readonly { id: number }[] | null): StoredTotals | null {
  const stored = row.totals as StoredTotals | null;
  if (stored?.format !== 1 || typeof stored.lines !== 'object') return null;
  if (items === null) return stored;
  return Object.keys(stored.lines).length === items.length && items.every((item) => typeof stored.lines[item.id] === 'string') ? stored : null;
}

/**
 * The invoice as answered, from its row (with parties) and its lines. Its totals are the stored
 * ones when the row has them (migration 0052), else computed from the lines: the two are the same
 * by construction, since any change of what they follow from clears the stored ones. `items` null:
 * the lines were not read (`LinesRead` 'for-totals'), so the row must have its totals stored; the
 * answer's `items` is then empty, for the caller to leave out.
 */
export function toInvoice(row: InvoiceRow, items: InvoiceItemRow[] | null): Invoice {
  const stored = storedTotalsOf(row, items);
  if (items === null && !stored) throw new Error(`invoice ${row.uuid} read without its lines has no stored totals`);
  const mapped = (items ?? []).map((item) => toItem(item, stored?.lines[item.id]));
  const currency = currencyCodeById(row.currency_id) ?? 'CHF';
  const entries: Invoice['entries'] = [];
  if (row.sent_entry_id) entries.push({ id: row.sent_entry_id, kind: 'sent' });
  if (row.paid_entry_id) entries.push({ id: row.paid_entry_id, kind: 'paid' });
  if (row.denied_entry_id) entries.push({ id: row.denied_entry_id, kind: 'denied' });
  const totals: InvoiceTotals = stored
    ? { net: stored.net, vatRate: stored.vatRate, vat: stored.vat, vatLines: stored.vatLines, gross: stored.gross, rounding: stored.rounding, total: stored.total }
    : // The lines' totals as answered, each computed once (toItem); the supply date chooses the rates as in totalsOf.
      totalsOfLineTotals(
        mapped.map((item) => ({ total: item.total, vatRate: item.vat })),
        row.vat_rate,
        currency,
        row.date_invoice,
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
    totalBase: stored?.totalBase ?? toBaseAmount(totals.total, fxRate),
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

/** An invoice with what its parties show (company, address, payment profile) and the books' currency. */
export type InvoiceRow = InvoiceWithPartiesRecord;

/** A line with its revenue account's number and name. */
export type InvoiceItemRow = InvoiceItemWithAccountRecord;

/**
 * The invoices' parties, asked of their owners (issue 11 §3): one call each to companies
 * (companies, addresses, payment profiles) and instances for the whole list, never one per row.
 */
async function withParties(tx: Tx, instanceId: string, records: readonly InvoiceRecord[]): Promise<InvoiceRow[]> {
  if (records.length === 0) return [];
  const companies = await companyHeadsByUuid(tx, instanceId, records.map((record) => record.company_uuid));
  const addresses = await addressesById(tx, instanceId, records.map((record) => record.address_id));
  const profiles = await listPaymentProfiles(tx, instanceId, { ids: [...new Set(records.map((record) => record.payment_profile_id))] });
  const defaults = await instanceDefaults(tx, instanceId);
  const profileById = new Map(profiles.map((profile) => [profile.id, profile]));
  return records.map((record) => {
    // The foreign keys of migration 0005 keep every party of an invoice in place.
    const company = companies.get(record.company_uuid)!;
    const address = addresses.get(record.address_id)!;
    const profile = profileById.get(record.payment_profile_id)!;
    return {
      ...record,
      company_name: company.name,
      street: address.street,
      house_number: address.houseNumber,
      zip: address.zip,
      city: address.city,
      country_id: address.country.id,
      profile_type_id: profile.type,
      profile_iban: profile.iban,
      profile_account_id: profile.account?.id ?? null,
      base_currency_id: Currency[defaults.currency],
    };
  });
}

/** The lines of the invoices, ordered by id, with their revenue accounts asked of accounting in one call. */
export async function itemsOf(tx: Tx, instanceId: string, invoiceUuids: readonly string[]): Promise<InvoiceItemRow[]> {
  if (invoiceUuids.length === 0) return [];
  const items = await selectItems(tx, instanceId, invoiceUuids);
  const accountIds = [...new Set(items.flatMap((item) => (item.account_id === null ? [] : [item.account_id])))];
  const accounts = new Map((accountIds.length ? await listLedgerAccounts(tx, instanceId, { ids: accountIds }) : []).map((a) => [a.id, a]));
  return items.map((item) => {
    const account = item.account_id === null ? undefined : accounts.get(item.account_id);
    return { ...item, account_number: account?.number ?? null, account_name: account?.name ?? null };
  });
}

/**
 * The invoice's row; with `lock`, the invoice row is first locked (`FOR UPDATE`) until the end of the
 * transaction, so a status change reads the state no parallel change can alter before it commits
 * (issue 11 §1). The read after the lock sees what a change that held it before committed.
 */
export async function loadRow(tx: Tx, instanceId: string, key: InvoiceKey, lock = false): Promise<InvoiceRow> {
  if (lock) {
    await tx.query(`SELECT 1 FROM invoice WHERE instance_id = $1 AND ${typeof key === 'number' ? 'id = $2' : 'uuid = $2'} FOR UPDATE`, [instanceId, key]);
  }
  const [record] = await selectInvoices(tx, instanceId, typeof key === 'number' ? { ids: [key] } : { uuids: [key] });
  if (!record) throw invoicingError('invoice_not_found', `invoice ${key} not found`);
  return (await withParties(tx, instanceId, [record]))[0]!;
}

/** One invoice with its items and totals; 404 when unknown in the instance. */
export async function getInvoice(tx: Tx, instanceId: string, key: InvoiceKey): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, key);
  const [invoice] = await invoicesStoringTotals(tx, instanceId, [{ row, items: await itemsOf(tx, instanceId, [row.uuid]) }]);
  return invoice!;
}

/**
 * `toInvoice` of each read, then the totals it had to compute stored (invoicing.sql.ts
 * `storeInvoiceTotals`): every invoice the app writes is read back through here, and one written
 * otherwise (an older version, a migration) gets them at its first read. The rows and lines must
 * come from reads with no write of this transaction between them and this call: the version check
 * only sees other transactions' changes.
 */
async function invoicesStoringTotals(tx: Tx, instanceId: string, reads: readonly { row: InvoiceRow; items: InvoiceItemRow[] | null }[]): Promise<Invoice[]> {
  const computed: { uuid: string; version: string; totals: StoredTotals }[] = [];
  const invoices = reads.map(({ row, items }) => {
    const invoice = toInvoice(row, items);
    if (!storedTotalsOf(row, items)) {
      computed.push({ uuid: row.uuid, version: row.row_version, totals: storedShape(invoice.totals, invoice.totalBase, invoice.items) });
    }
    return invoice;
  });
  await storeInvoiceTotals(tx, instanceId, computed);
  return invoices;
}

/** Invoices with items and totals, newest first: all of them (for the modules that need every open one). */
export async function listInvoices(tx: Tx, instanceId: string, filter: InvoiceFilter): Promise<{ data: Invoice[]; total: number }> {
  const data = await fullToInvoices(tx, instanceId, await selectInvoicesFull(tx, instanceId, filter));
  return { data, total: data.length };
}

/**
 * One page of invoices with items and totals, newest first (db/paging.ts): read and counted in
 * SQL, so a page costs the same at 30 or 30,000 invoices; rows, parties and lines in one statement
 * (decision 037).
 */
export async function listInvoicePage(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter,
  page: PageRequest,
): Promise<{ data: Invoice[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { rows, ...rest } = await selectInvoicePage(tx, instanceId, filter, page);
  return { data: await fullToInvoices(tx, instanceId, rows), ...rest };
}

/**
 * `listInvoicePage` with, beside each invoice, the values of `extraColumns` (invoicing.sql.ts
 * `selectInvoicePage`) read in the page's own statement. `lines` 'for-totals': the invoices' lines
 * are read only where the totals must be computed, and each `items` is to be left out of the answer.
 */
export async function listInvoicePageWith<E extends Row>(
  tx: Tx,
  instanceId: string,
  filter: InvoiceFilter,
  page: PageRequest,
  extraColumns: string,
  lines: LinesRead = 'all',
): Promise<{ data: { invoice: Invoice; extra: E }[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { rows, ...rest } = await selectInvoicePage<E>(tx, instanceId, filter, page, extraColumns, lines);
  const invoices = await fullToInvoices(tx, instanceId, rows);
  return { data: invoices.map((invoice, index) => ({ invoice, extra: rows[index]! })), ...rest };
}

/** Invoices read with their parties and lines in one statement (invoicing.sql.ts `selectInvoicesFull`). */
function fullToInvoices(tx: Tx, instanceId: string, records: readonly InvoiceFullRecord[]): Promise<Invoice[]> {
  return invoicesStoringTotals(tx, instanceId, records.map(({ items, ...row }) => ({ row, items })));
}

/** The invoices `uuids` with items and totals, newest first; unknown uuids are left out. */
export async function invoicesByUuids(tx: Tx, instanceId: string, uuids: readonly string[]): Promise<Invoice[]> {
  if (uuids.length === 0) return [];
  return fullToInvoices(tx, instanceId, await selectInvoicesFull(tx, instanceId, { uuids }));
}

/**
 * Creates a pending invoice with its lines. The payment reference is fixed here: a QR reference
 * from the id with a QR-IBAN, else an ISO 11649 creditor reference. Due date default: invoice date
 * + 30 days. 400 naming every bad field (`company.uuid`, `address.id`, `paymentProfile.id`, `vat`,
 * `fxRate`, `dateDue`, `items.N.*`) otherwise; nothing is written then.
 */
export async function insertInvoice(tx: Tx, instanceId: string, userId: string | null, data: InvoiceData): Promise<Invoice> {
  const settings = await instanceDefaults(tx, instanceId);
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

/**
 * The checks `insertInvoice` makes, without writing anything: for documents that keep an invoice's
 * head and lines to become invoices later (quotes and recurring templates, issue 15 §4). Answers
 * what would be stored: the VAT rate (default the instance's), currency (default CHF), exchange
 * rate and due date (default + 30 days). 400 `invoice_invalid` naming every bad field, as insert.
 */
export async function checkInvoiceData(
  tx: Tx,
  instanceId: string,
  data: InvoiceData,
): Promise<{ vat: string; currency: CurrencyCode; fxRate: string; dateDue: string }> {
  const settings = await instanceDefaults(tx, instanceId);
  const vat = data.vat ?? settings.vatRate ?? '0.081';
  const currency = data.currency ?? 'CHF';
  const dateDue = data.dateDue ?? addDays(data.dateInvoice, DEFAULT_PAYMENT_TERM_DAYS);
  const { fxRate } = await checkInvoice(tx, instanceId, { ...data, vat, currency, fxRate: data.fxRate, dateDue, items: data.items ?? [] });
  return { vat, currency, fxRate, dateDue };
}

function assertPending(row: InvoiceRow): void {
  if (row.status_id !== InvoiceStatus.pending) {
    throw invoicingError('invoice_not_pending', `invoice ${formatReferenceNumber(row.id)} is ${STATUS_NAMES[row.status_id]}: only pending invoices can be changed`);
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
    items: data.items ?? (await itemsOf(tx, instanceId, [row.uuid])).map((item) => ({ ...toItem(item), currency: undefined })),
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
  const settings = await instanceDefaults(tx, instanceId);
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
  if (!item) throw invoicingError('invoice_item_not_found', `invoice item ${itemId} not found`);
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

/** Number of invoices of the instance, or of those dated (invoice date) in `period`, inclusive (dashboard counts). */
export async function countInvoices(tx: Tx, instanceId: string, period: { dateFrom: string; dateTo: string } | null = null): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM invoice WHERE instance_id = $1 AND ($2::date IS NULL OR date_invoice BETWEEN $2::date AND $3::date)',
    [instanceId, period?.dateFrom ?? null, period?.dateTo ?? null],
  );
  return row?.n ?? 0;
}

/** The own company (creditor) with its first address, the instance's VAT number and letterhead, for the PDF; null before onboarding made one. */
export async function ownCompany(tx: Tx, instanceId: string) {
  const { ownCompanyUuid, vatNumber } = await instanceDefaults(tx, instanceId);
  if (!ownCompanyUuid) return null;
  const company = await getCompany(tx, instanceId, ownCompanyUuid, ownCompanyUuid);
  const address = company.address;
  const letterhead = await instanceLetterhead(tx, instanceId);
  return {
    name: company.name,
    uid: company.uid,
    vat_number: vatNumber,
    street: address?.street ?? null,
    house_number: address?.houseNumber ?? null,
    zip: address?.zip ?? null,
    city: address?.city ?? null,
    country_id: address?.country.id ?? null,
    letterhead: { logo: letterhead.logo, contact: contactLines(letterhead) },
  };
}

/**
 * The payment profiles an invoice may name, sorted by id: the own company's active IBAN and QR-bill
 * profiles with an account number (asked of companies).
 */
export async function invoiceProfiles(tx: Tx, instanceId: string, ownCompanyUuid: string | null): Promise<(PaymentProfile & { iban: string })[]> {
  if (!ownCompanyUuid) return [];
  const profiles = await listPaymentProfiles(tx, instanceId, { companyUuid: ownCompanyUuid });
  return profiles.filter(
    (p): p is PaymentProfile & { iban: string } => (p.type === PaymentProfileType.Iban || p.type === PaymentProfileType.QrBill) && p.iban !== null,
  );
}

/**
 * What the invoice form offers: customers (uuid and name; their addresses are asked of
 * `address/list` for the customer chosen, not loaded for every company here), own IBAN/QR bill
 * profiles, VAT rates, currencies and revenue accounts.
 */
export async function formOptions(tx: Tx, instanceId: string) {
  const settings = await instanceDefaults(tx, instanceId);
  const profiles = await invoiceProfiles(tx, instanceId, settings.ownCompanyUuid);
  const vatRate = settings.vatRate ? normalizeVatRate(settings.vatRate) : null;
  const vatRates = allowedVatRates(settings.vatRate);
  const revenue = await listLedgerAccounts(tx, instanceId, { type: AccountType.revenue });
  // No customers: the form's company picker searches `company/list` (every customer was 5,000 rows at 5,000 companies, issue 18 §2).
  return {
    paymentProfiles: profiles.map((p) => ({ id: p.id, type: p.type, iban: p.iban, qrIban: isQrIban(p.iban), account: p.account === null ? null : { id: p.account.id } })),
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
    `SELECT uuid, id FROM invoice i WHERE instance_id = $1 AND ($2 IN (sent_entry_id, paid_entry_id, denied_entry_id)
        OR EXISTS (SELECT 1 FROM invoice_payment p WHERE p.instance_id = $1 AND p.invoice_uuid = i.uuid
                      AND $2 IN (p.entry_id, p.write_off_entry_id, p.reversal_entry_id, p.reversal_write_off_entry_id))
        OR EXISTS (SELECT 1 FROM credit_note c WHERE c.instance_id = $1 AND c.invoice_uuid = i.uuid AND c.entry_id = $2))`,
    [instanceId, entryId],
  );
  if (!row) throw invoicingError('entry_not_of_invoice', `invoice of entry ${entryId} not found`);
  return { uuid: row.uuid, refNumber: formatReferenceNumber(row.id) };
}
