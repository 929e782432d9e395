/**
 * Sales invoices (spec §3 Invoice / Invoice item, §4 Invoice status, issue #4 §3): creation with a
 * payment reference fixed from the payment profile, lines, totals, status changes that post normal
 * journal entries through the accounting module, debtors with ageing, CSV import and share links.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  Currency,
  InvoiceStatus,
  INVOICE_VAT_RATES,
  PaymentProfileType,
  currencyCodeById,
  formatReferenceNumber,
  invoiceCreditorReference,
  invoiceLineTotal,
  invoiceQrReference,
  invoiceTotals,
  isQrIban,
  toFixedAmount,
  toMoney,
  type CurrencyCode,
  type InvoiceTotals,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { AppError, conflict, fieldError, notFound } from '../../http/errors.js';
import { postJournalEntry } from '../accounting/journal-entry.service.js';
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
  currency?: CurrencyCode | undefined;
  fxRate?: string | undefined;
}

export interface InvoiceData {
  company: { uuid: string };
  address: { id: number };
  paymentProfile: { id: number };
  /** VAT rate as a fraction: the instance rate or 0.081, 0.026, 0.038, 0. Default: the instance rate. */
  vat?: string | undefined;
  currency?: 'CHF' | 'EUR' | undefined;
  dateInvoice: string;
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
  dateInvoice: string;
  dateDue: string | null;
  description: string;
  bankRef: string | null;
  ledgerDate: string | null;
  items: InvoiceItem[];
  totals: InvoiceTotals;
  /** Journal entries posted for this invoice (status changes). */
  entries: { id: number; kind: 'sent' | 'paid' | 'denied' }[];
  shared: boolean;
}

const toItem = (row: InvoiceItemRow): InvoiceItem => ({
  id: row.id,
  name: row.label,
  amount: trimZeros(row.quantity),
  price: trimZeros(row.price),
  discount: row.discount === null ? null : trimZeros(row.discount),
  discountAbs: row.discount_abs,
  currency: currencyCodeById(row.currency_id) ?? 'CHF',
  fxRate: trimZeros(row.fx_rate),
  logDateAdded: String(row.created_at),
  total: invoiceLineTotal({ quantity: row.quantity, price: row.price, discount: row.discount, discountAbs: row.discount_abs }),
});

/** "12.5000" → "12.5", "3.0000" → "3": the stored scale is an implementation detail. */
function trimZeros(value: string): string {
  return value.includes('.') ? value.replace(/\.?0+$/, '') : value;
}

function toInvoice(row: InvoiceRow, items: InvoiceItemRow[]): Invoice {
  const mapped = items.map(toItem);
  const currency = currencyCodeById(row.currency_id) ?? 'CHF';
  const entries: Invoice['entries'] = [];
  if (row.sent_entry_id) entries.push({ id: row.sent_entry_id, kind: 'sent' });
  if (row.paid_entry_id) entries.push({ id: row.paid_entry_id, kind: 'paid' });
  if (row.denied_entry_id) entries.push({ id: row.denied_entry_id, kind: 'denied' });
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
    vat: trimZeros(row.vat_rate),
    currency,
    dateInvoice: row.date_invoice,
    dateDue: row.date_due,
    description: row.description,
    bankRef: row.bank_ref,
    ledgerDate: row.ledger_date,
    items: mapped,
    totals: invoiceTotals(
      mapped.map((item) => ({ quantity: item.amount, price: item.price, discount: item.discount, discountAbs: item.discountAbs })),
      row.vat_rate,
      currency,
    ),
    entries,
    shared: row.shared,
  };
}

/** Accepts a uuid or the numeric per-instance id. */
export type InvoiceKey = string | number;

async function loadRow(tx: Tx, instanceId: string, key: InvoiceKey): Promise<InvoiceRow> {
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

async function instanceVatRate(tx: Tx, instanceId: string): Promise<string | null> {
  const [row] = await tx.query<{ vat_rate: string | null }>('SELECT vat_rate::text AS vat_rate FROM instance WHERE id = $1', [instanceId]);
  return row?.vat_rate ?? null;
}

/** The VAT rate an invoice may carry: the instance's rate or a Swiss rate (400 on `vat` otherwise). */
async function checkVat(tx: Tx, instanceId: string, vat: string | undefined, field = 'vat'): Promise<string> {
  const instanceRate = await instanceVatRate(tx, instanceId);
  if (vat === undefined) return instanceRate ?? '0.081';
  const allowed = [...INVOICE_VAT_RATES, ...(instanceRate ? [instanceRate] : [])];
  if (!allowed.some((rate) => toMoney(rate).eq(toMoney(vat)))) {
    throw fieldError(field, 'VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0');
  }
  return vat;
}

/** Company, address (of that company) and payment profile (of the own company, IBAN or QR bill). */
async function checkParties(
  tx: Tx,
  instanceId: string,
  data: Pick<InvoiceData, 'company' | 'address' | 'paymentProfile'>,
  prefix = '',
): Promise<{ iban: string }> {
  const [company] = await tx.query('SELECT 1 FROM company WHERE instance_id = $1 AND uuid = $2', [instanceId, data.company.uuid]);
  if (!company) throw fieldError(`${prefix}company.uuid`, 'company not found');
  const [address] = await tx.query('SELECT 1 FROM address WHERE instance_id = $1 AND id = $2 AND company_uuid = $3', [
    instanceId,
    data.address.id,
    data.company.uuid,
  ]);
  if (!address) throw fieldError(`${prefix}address.id`, 'the address must be one of the company');
  const [profile] = await tx.query<{ type_id: number; iban: string | null; own: boolean; log_is_log: boolean }>(
    `SELECT p.type_id, p.iban, p.log_is_log, p.company_uuid = i.own_company_uuid AS own
       FROM payment_profile p JOIN instance i ON i.id = p.instance_id WHERE p.instance_id = $1 AND p.id = $2`,
    [instanceId, data.paymentProfile.id],
  );
  if (!profile || !profile.own || profile.log_is_log) {
    throw fieldError(`${prefix}paymentProfile.id`, 'choose one of your own active payment profiles');
  }
  if ((profile.type_id !== PaymentProfileType.Iban && profile.type_id !== PaymentProfileType.QrBill) || !profile.iban) {
    throw fieldError(`${prefix}paymentProfile.id`, 'the payment profile must be an IBAN or QR bill account');
  }
  return { iban: profile.iban };
}

const itemColumns = (item: ItemData): ItemColumns => ({
  label: item.name.trim(),
  quantity: item.amount,
  price: item.price,
  discount: item.discount == null || item.discount === '' ? null : item.discount,
  discountAbs: item.discountAbs == null || item.discountAbs === '' ? null : item.discountAbs,
  currencyId: Currency[item.currency ?? 'CHF'],
  fxRate: item.fxRate ?? '1',
});

/** Line rules the schema cannot express: a discount may not exceed the line (400 on the field). */
function checkItem(item: ItemData, prefix: string): void {
  const gross = toMoney(item.amount).times(toMoney(item.price));
  if (item.discountAbs && toMoney(item.discountAbs).gt(gross)) {
    throw fieldError(`${prefix}discountAbs`, 'the discount cannot exceed the line amount');
  }
}

/**
 * Creates a pending invoice with its lines. The payment reference is fixed here: a QR reference
 * from the id with a QR-IBAN, else an ISO 11649 creditor reference. 400 naming the field otherwise.
 */
export async function insertInvoice(tx: Tx, instanceId: string, userId: string | null, data: InvoiceData): Promise<Invoice> {
  const { iban } = await checkParties(tx, instanceId, data);
  const vat = await checkVat(tx, instanceId, data.vat);
  (data.items ?? []).forEach((item, index) => checkItem(item, `items.${index}.`));
  const [next] = await tx.query<{ id: number }>("SELECT next_ids($1, 'invoice') AS id", [instanceId]);
  const id = next!.id;
  const reference = isQrIban(iban) ? invoiceQrReference(id) : invoiceCreditorReference(id);
  const [row] = await tx.query<{ uuid: string }>(
    `INSERT INTO invoice (instance_id, id, company_uuid, address_id, payment_profile_id, vat_rate, currency_id, date_invoice,
                          date_due, description, payment_reference, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING uuid`,
    [
      instanceId,
      id,
      data.company.uuid,
      data.address.id,
      data.paymentProfile.id,
      vat,
      Currency[data.currency ?? 'CHF'],
      data.dateInvoice,
      data.dateDue ?? null,
      data.description?.trim() ?? '',
      reference,
      userId,
    ],
  );
  for (const item of data.items ?? []) await insertItem(tx, instanceId, row!.uuid, itemColumns(item));
  return getInvoice(tx, instanceId, row!.uuid);
}

function assertPending(row: InvoiceRow): void {
  if (row.status_id !== InvoiceStatus.pending) {
    throw conflict(`invoice ${formatReferenceNumber(row.id)} is ${STATUS_NAMES[row.status_id]}: only pending invoices can be changed`);
  }
}

/** Changes the head of a pending invoice (409 once sent); lines given replace all lines. */
export async function updateInvoice(tx: Tx, instanceId: string, key: InvoiceKey, data: Partial<InvoiceData>): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, key);
  assertPending(row);
  const merged = {
    company: data.company ?? { uuid: row.company_uuid },
    address: data.address ?? { id: row.address_id },
    paymentProfile: data.paymentProfile ?? { id: row.payment_profile_id },
  };
  const { iban } = await checkParties(tx, instanceId, merged);
  const vat = data.vat === undefined ? row.vat_rate : await checkVat(tx, instanceId, data.vat);
  (data.items ?? []).forEach((item, index) => checkItem(item, `items.${index}.`));
  const reference = isQrIban(iban) ? invoiceQrReference(row.id) : invoiceCreditorReference(row.id);
  await tx.query(
    `UPDATE invoice SET company_uuid = $3, address_id = $4, payment_profile_id = $5, vat_rate = $6, currency_id = $7,
            date_invoice = $8, date_due = $9, description = $10, payment_reference = $11
      WHERE instance_id = $1 AND uuid = $2`,
    [
      instanceId,
      row.uuid,
      merged.company.uuid,
      merged.address.id,
      merged.paymentProfile.id,
      vat,
      data.currency ? Currency[data.currency] : row.currency_id,
      data.dateInvoice ?? row.date_invoice,
      data.dateDue === undefined ? row.date_due : data.dateDue,
      data.description?.trim() ?? row.description,
      reference,
    ],
  );
  if (data.items) {
    await tx.query('DELETE FROM invoice_item WHERE instance_id = $1 AND invoice_uuid = $2', [instanceId, row.uuid]);
    for (const item of data.items) await insertItem(tx, instanceId, row.uuid, itemColumns(item));
  }
  return getInvoice(tx, instanceId, row.uuid);
}

/** Deletes a pending invoice and its lines; 409 once it has been sent. */
export async function deleteInvoice(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  const row = await loadRow(tx, instanceId, uuid);
  assertPending(row);
  await tx.query('DELETE FROM invoice WHERE instance_id = $1 AND uuid = $2', [instanceId, uuid]);
}

/** Adds a line to a pending invoice; returns the invoice. */
export async function addItem(tx: Tx, instanceId: string, invoiceUuid: string, item: ItemData): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, invoiceUuid);
  assertPending(row);
  checkItem(item, '');
  await insertItem(tx, instanceId, row.uuid, itemColumns(item));
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
  checkItem(item, '');
  await updateItem(tx, instanceId, itemId, itemColumns(item));
  return getInvoice(tx, instanceId, row.uuid);
}

/** Removes a line of a pending invoice; returns the invoice. */
export async function removeItem(tx: Tx, instanceId: string, itemId: number): Promise<Invoice> {
  const row = await loadItemInvoice(tx, instanceId, itemId);
  await tx.query('DELETE FROM invoice_item WHERE instance_id = $1 AND id = $2', [instanceId, itemId]);
  return getInvoice(tx, instanceId, row.uuid);
}

/** Account of a function type, else the Swiss SME chart number (seeded by onboarding). */
async function accountFor(tx: Tx, instanceId: string, functionType: number, number: string, label: string): Promise<number> {
  const [byNumber] = await tx.query<{ id: number }>(
    `SELECT id FROM ledger_account WHERE instance_id = $1 AND (number = $2 OR function_type_id = $3)
      ORDER BY (number = $2) DESC, number LIMIT 1`,
    [instanceId, number, functionType],
  );
  if (!byNumber) throw conflict(`no ${label} account: add ledger account ${number} to the chart of accounts`);
  return byNumber.id;
}

export interface StatusChange {
  uuid: string;
  status: number;
  bankRef?: string | null | undefined;
  /** YYYY-MM-DD; default today. */
  ledgerDate?: string | undefined;
}

const ALLOWED: Record<number, number[]> = { 1: [2], 2: [3, 4], 3: [], 4: [] };

/**
 * Changes an invoice's status and posts its journal entry at `ledgerDate` (spec §4, issue #4 §3):
 * pending → sent: debit receivable 1100 = total; credit revenue 3200 = net + rounding; credit VAT
 * 2200 (2201 at 2.6 %) = vat. On sending, lines take currency CHF and fxRate 1 (spec §9).
 * sent → paid: debit the payment profile's ledger account, credit receivable (bankRef kept).
 * sent → denied: the reverse of the sent entry. Anything else: 409. The lock date applies (409).
 */
export async function changeStatus(tx: Tx, instanceId: string, userId: string | null, change: StatusChange): Promise<Invoice> {
  const row = await loadRow(tx, instanceId, change.uuid);
  const from = row.status_id;
  if (!ALLOWED[from]?.includes(change.status)) {
    throw conflict(
      `invoice ${formatReferenceNumber(row.id)} cannot go from ${STATUS_NAMES[from]} to ${STATUS_NAMES[change.status] ?? change.status}: ` +
        'allowed are pending → sent, sent → paid and sent → denied',
      { status: `not allowed from ${STATUS_NAMES[from]}` },
    );
  }
  const ledgerDate = change.ledgerDate ?? new Date().toISOString().slice(0, 10);
  const invoice = toInvoice(row, await selectItems(tx, instanceId, [row.uuid]));
  const ref = formatReferenceNumber(row.id);
  const receivable = await accountFor(tx, instanceId, 5, '1100', 'receivable');
  let entryId: number;
  let column: 'sent_entry_id' | 'paid_entry_id' | 'denied_entry_id';
  if (change.status === InvoiceStatus.sent) {
    if (invoice.items.length === 0) throw fieldError('uuid', 'an invoice without lines cannot be sent');
    if (toMoney(invoice.totals.total).lte(0)) throw fieldError('uuid', 'the invoice total must be greater than 0');
    if (invoice.currency !== 'CHF') throw fieldError('uuid', 'only CHF invoices can be posted');
    const revenue = await accountFor(tx, instanceId, 3, '3200', 'sales revenue');
    const lines: { accountId: number; amount: string; direction: 1 | -1 }[] = [
      { accountId: receivable, amount: invoice.totals.total, direction: 1 },
      { accountId: revenue, amount: toFixedAmount(toMoney(invoice.totals.net).plus(toMoney(invoice.totals.rounding))), direction: -1 },
    ];
    if (!toMoney(invoice.totals.vat).isZero()) {
      const vatAccount = toMoney(row.vat_rate).eq(toMoney('0.026'))
        ? await accountFor(tx, instanceId, 2, '2201', 'VAT payable')
        : await accountFor(tx, instanceId, 2, '2200', 'VAT payable');
      lines.push({ accountId: vatAccount, amount: invoice.totals.vat, direction: -1 });
    }
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Invoice ${ref} ${row.company_name}`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines,
    });
    column = 'sent_entry_id';
    await tx.query("UPDATE invoice_item SET currency_id = 1, fx_rate = 1 WHERE instance_id = $1 AND invoice_uuid = $2", [instanceId, row.uuid]);
  } else if (change.status === InvoiceStatus.paid) {
    if (row.profile_account_id === null) throw conflict('the payment profile has no ledger account to book the payment on');
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Payment ${ref} ${row.company_name}${change.bankRef ? ` (${change.bankRef})` : ''}`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: [
        { accountId: row.profile_account_id, amount: invoice.totals.total, direction: 1 },
        { accountId: receivable, amount: invoice.totals.total, direction: -1 },
      ],
    });
    column = 'paid_entry_id';
  } else {
    const sent = await tx.query<{ account_id: number; amount: string; direction: 1 | -1 }>(
      'SELECT account_id, amount::text AS amount, direction FROM journal_line WHERE instance_id = $1 AND entry_id = $2 ORDER BY id',
      [instanceId, row.sent_entry_id],
    );
    entryId = await postJournalEntry(tx, instanceId, userId, {
      dateLedger: ledgerDate,
      description: `Reversal of invoice ${ref} ${row.company_name} (denied)`.slice(0, 500),
      source: 'invoice',
      sourceRef: row.uuid,
      lines: sent.map((line) => ({ accountId: line.account_id, amount: line.amount, direction: (line.direction === 1 ? -1 : 1) as 1 | -1 })),
    });
    column = 'denied_entry_id';
  }
  await tx.query(
    `UPDATE invoice SET status_id = $3, ${column} = $4, ledger_date = $5, bank_ref = COALESCE($6, bank_ref) WHERE instance_id = $1 AND uuid = $2`,
    [instanceId, row.uuid, change.status, entryId, ledgerDate, change.bankRef?.trim() || null],
  );
  return getInvoice(tx, instanceId, row.uuid);
}

export interface DebtorRow {
  company: { uuid: string; name: string };
  invoices: number;
  /** Open amounts by days since the invoice date at `date`: 0–30, 31–60, 61–90, > 90. */
  buckets: { d0_30: string; d31_60: string; d61_90: string; d90plus: string };
  total: string;
}

/** Open receivables (status sent) per customer with ageing buckets at `date` (default today). */
export async function listDebtors(tx: Tx, instanceId: string, date?: string): Promise<{ date: string; data: DebtorRow[]; totals: DebtorRow['buckets'] & { total: string } }> {
  const at = date ?? new Date().toISOString().slice(0, 10);
  const { data: open } = await listInvoices(tx, instanceId, { status: InvoiceStatus.sent });
  const byCompany = new Map<string, { company: { uuid: string; name: string }; invoices: number; sums: [ReturnType<typeof toMoney>, ReturnType<typeof toMoney>, ReturnType<typeof toMoney>, ReturnType<typeof toMoney>] }>();
  const zero = () => toMoney(0);
  const grand = [zero(), zero(), zero(), zero()] as const;
  const grandSums = [...grand];
  for (const invoice of open) {
    const days = Math.floor((Date.parse(at) - Date.parse(invoice.dateInvoice)) / 86_400_000);
    const bucket = days <= 30 ? 0 : days <= 60 ? 1 : days <= 90 ? 2 : 3;
    const entry = byCompany.get(invoice.company.uuid) ?? { company: invoice.company, invoices: 0, sums: [zero(), zero(), zero(), zero()] };
    entry.invoices += 1;
    entry.sums[bucket] = entry.sums[bucket].plus(toMoney(invoice.totals.total));
    grandSums[bucket] = grandSums[bucket]!.plus(toMoney(invoice.totals.total));
    byCompany.set(invoice.company.uuid, entry);
  }
  const buckets = (s: readonly ReturnType<typeof toMoney>[]) => ({
    d0_30: toFixedAmount(s[0]!),
    d31_60: toFixedAmount(s[1]!),
    d61_90: toFixedAmount(s[2]!),
    d90plus: toFixedAmount(s[3]!),
  });
  const sum = (s: readonly ReturnType<typeof toMoney>[]) => toFixedAmount(s.reduce((a, b) => a.plus(b), zero()));
  const data = [...byCompany.values()]
    .map((entry) => ({ company: entry.company, invoices: entry.invoices, buckets: buckets(entry.sums), total: sum(entry.sums) }))
    .sort((a, b) => a.company.name.localeCompare(b.company.name));
  return { date: at, data, totals: { ...buckets(grandSums), total: sum(grandSums) } };
}

export interface ImportRow {
  /** Rows with the same key form one invoice. */
  invoice: string;
  companyUuid: string;
  addressId?: number | undefined;
  paymentProfileId?: number | undefined;
  dateInvoice: string;
  dateDue?: string | undefined;
  vat?: string | undefined;
  description?: string | undefined;
  name: string;
  amount: string;
  price: string;
  discount?: string | undefined;
  discountAbs?: string | undefined;
}

/**
 * Imports invoices from rows (one per line), all or nothing: every row is checked, and with any
 * error nothing is written and the answer is 400 with `rows: [{ row, field, message }]` (row is
 * 1-based). Missing address: the company's first; missing payment profile: the own company's
 * first active IBAN/QR bill profile.
 */
export async function importInvoices(tx: Tx, instanceId: string, userId: string | null, rows: readonly ImportRow[]): Promise<{ created: Invoice[] }> {
  const errors: { row: number; field: string; message: string }[] = [];
  const groups = new Map<string, { first: number; data: InvoiceData }>();
  const [defaultProfile] = await tx.query<{ id: number }>(
    `SELECT p.id FROM payment_profile p JOIN instance i ON i.id = p.instance_id
      WHERE p.instance_id = $1 AND p.company_uuid = i.own_company_uuid AND NOT p.log_is_log AND p.type_id IN (1, 2) AND p.iban IS NOT NULL
      ORDER BY p.id LIMIT 1`,
    [instanceId],
  );
  for (const [index, row] of rows.entries()) {
    const number = index + 1;
    const [address] = await tx.query<{ id: number }>(
      'SELECT id FROM address WHERE instance_id = $1 AND company_uuid = $2 AND ($3::int IS NULL OR id = $3) ORDER BY id LIMIT 1',
      [instanceId, row.companyUuid, row.addressId ?? null],
    );
    if (!address) {
      errors.push({ row: number, field: row.addressId ? 'addressId' : 'companyUuid', message: 'company or address not found' });
      continue;
    }
    const item: ItemData = { name: row.name, amount: row.amount, price: row.price, discount: row.discount, discountAbs: row.discountAbs };
    let group = groups.get(row.invoice);
    if (!group) {
      group = {
        first: number,
        data: {
          company: { uuid: row.companyUuid },
          address: { id: address.id },
          paymentProfile: { id: row.paymentProfileId ?? defaultProfile?.id ?? 0 },
          vat: row.vat,
          dateInvoice: row.dateInvoice,
          dateDue: row.dateDue,
          description: row.description,
          items: [],
        },
      };
      groups.set(row.invoice, group);
    } else if (group.data.company.uuid !== row.companyUuid) {
      errors.push({ row: number, field: 'companyUuid', message: `invoice ${row.invoice} has another company on an earlier row` });
      continue;
    }
    try {
      checkItem(item, '');
    } catch (error) {
      if (error instanceof AppError) errors.push({ row: number, field: Object.keys(error.fields ?? {})[0] ?? 'row', message: error.message });
      continue;
    }
    group.data.items!.push(item);
  }
  const created: Invoice[] = [];
  if (errors.length === 0) {
    for (const group of groups.values()) {
      try {
        created.push(await insertInvoice(tx, instanceId, userId, group.data));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        const field = Object.keys(error.fields ?? {})[0] ?? 'row';
        errors.push({ row: group.first, field: field.replace(/^paymentProfile\.id$/, 'paymentProfileId').replace(/^vat$/, 'vat'), message: error.message });
      }
    }
  }
  if (errors.length) {
    const first = errors[0]!;
    throw new AppError('validation', `row ${first.row}: ${first.field}: ${first.message}`, { [`data.${first.row - 1}.${first.field}`]: first.message }, { rows: errors });
  }
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
  const storedRate = await instanceVatRate(tx, instanceId);
  const vatRate = storedRate ? toMoney(storedRate).toFixed() : null;
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
    vatRates: [...new Set([...(vatRate ? [vatRate] : []), ...INVOICE_VAT_RATES])],
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
