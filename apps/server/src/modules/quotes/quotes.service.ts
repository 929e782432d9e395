/**
 * Quotes (Offerten, issue 15 §4, decision 031): an invoice's head and lines with a validity date and
 * their own number series ('AN-00001'), statuses draft → sent → accepted | declined (accepted and
 * declined are final; sent never returns to draft), and 'Create invoice' from an accepted quote —
 * a pending invoice made by invoicing's own `insertInvoice`, recorded on the quote once. A quote
 * never posts anything. Head and lines are checked by invoicing's rules (`checkInvoiceData`).
 */
import {
  Currency,
  addDays,
  currencyCodeById,
  invoiceTotals,
  normalizeVatRate,
  toBaseAmount,
  type CurrencyCode,
  type InvoiceTotals,
} from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import type { PageRequest } from '../../db/paging.js';
import { AppError, alreadyDone } from '../../http/errors.js';
import { listLedgerAccounts, todayInSwitzerland } from '../accounting/accounting.service.js';
import { addressesById, companyHeadsByUuid } from '../companies/companies.service.js';
import { instanceDefaults } from '../instances/instances.service.js';
import {
  checkInvoiceData,
  insertInvoice,
  invoicesByUuids,
  renderInvoicePdf,
  ownCompany,
  type Invoice,
  type InvoiceData,
  type ItemData,
  type PdfLang,
  documentLine,
  trimZeros,
  type DocumentLine,
} from '../invoicing/invoicing.service.js';
import { quoteError } from './quotes.errors.js';
import {
  deleteQuoteRow,
  insertQuote,
  replaceQuoteItems,
  selectQuote,
  selectQuoteItems,
  selectQuotePage,
  setQuoteInvoice,
  updateQuoteHead,
  updateQuoteStatus,
  type QuoteColumns,
  type QuoteItemColumns,
  type QuoteItemRecord,
  type QuoteRecord,
  type QuoteStatus,
} from './quotes.sql.js';

export type { QuoteStatus } from './quotes.sql.js';
export const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'declined'] as const;
/** Days a quote is valid when no validity date is given. */
export const DEFAULT_VALIDITY_DAYS = 30;

/** 'AN-' (Angebot) + the per-instance number padded to 5: the quote's number on the wire and the PDF. */
export const formatQuoteNumber = (id: number) => `AN-${String(id).padStart(5, '0')}`;

/** What a quote is made of: the invoice form's head and lines with `dateQuote` and `validUntil` for its dates. */
export interface QuoteData extends Omit<InvoiceData, 'dateInvoice' | 'dateDue'> {
  dateQuote: string;
  /** Absent or null: dateQuote + 30 days. */
  validUntil?: string | null | undefined;
}

/** A quote line as answered: an invoice line (spec §3 working names) with its total. */
export type QuoteItem = DocumentLine;

export interface Quote {
  uuid: string;
  id: number;
  number: string;
  status: QuoteStatus;
  company: { uuid: string; name: string };
  address: { id: number; street: string; houseNumber: string | null; zip: string; city: string; country: { id: number } };
  paymentProfile: { id: number };
  vat: string;
  currency: CurrencyCode;
  fxRate: string;
  dateQuote: string;
  validUntil: string;
  description: string;
  items: QuoteItem[];
  totals: InvoiceTotals;
  /** The invoice this accepted quote became, while it exists. */
  invoice: { uuid: string; refNumber: string } | null;
  createdAt: string;
}


/** Quotes of `records` with their parties, lines, totals and invoice: a few queries for the whole list. */
async function toQuotes(tx: Tx, instanceId: string, records: readonly QuoteRecord[]): Promise<Quote[]> {
  if (records.length === 0) return [];
  const companies = await companyHeadsByUuid(tx, instanceId, records.map((r) => r.company_uuid));
  const addresses = await addressesById(tx, instanceId, records.map((r) => r.address_id));
  const items = await selectQuoteItems(tx, instanceId, records.map((r) => r.uuid));
  const accountIds = [...new Set(items.flatMap((item) => (item.account_id === null ? [] : [item.account_id])))];
  const accounts = new Map((accountIds.length ? await listLedgerAccounts(tx, instanceId, { ids: accountIds }) : []).map((a) => [a.id, a]));
  const invoiceUuids = records.flatMap((r) => (r.invoice_uuid ? [r.invoice_uuid] : []));
  const invoices = new Map((await invoicesByUuids(tx, instanceId, invoiceUuids)).map((i) => [i.uuid, i]));
  const toItem = (item: QuoteItemRecord): QuoteItem => documentLine(item, item.account_id === null ? undefined : accounts.get(item.account_id));
  return records.map((record) => {
    const currency = currencyCodeById(record.currency_id) ?? 'CHF';
    const lines = items.filter((item) => item.quote_uuid === record.uuid).map(toItem);
    const address = addresses.get(record.address_id)!;
    const invoice = record.invoice_uuid ? invoices.get(record.invoice_uuid) : undefined;
    return {
      uuid: record.uuid,
      id: record.id,
      number: formatQuoteNumber(record.id),
      status: record.status,
      company: { uuid: record.company_uuid, name: companies.get(record.company_uuid)?.name ?? '' },
      address: { id: address.id, street: address.street, houseNumber: address.houseNumber, zip: address.zip, city: address.city, country: { id: address.country.id } },
      paymentProfile: { id: record.payment_profile_id },
      vat: normalizeVatRate(record.vat_rate),
      currency,
      fxRate: trimZeros(record.fx_rate),
      dateQuote: record.date_quote,
      validUntil: record.valid_until,
      description: record.description,
      items: lines,
      // The same totals an invoice of these lines gets (VAT per rate, 5-Rappen rounding in CHF).
      totals: invoiceTotals(
        lines.map((l) => ({ quantity: l.amount, price: l.price, discount: l.discount, discountAbs: l.discountAbs, vatRate: l.vat })),
        record.vat_rate,
        currency,
        record.date_quote,
      ),
      invoice: invoice ? { uuid: invoice.uuid, refNumber: invoice.refNumber } : null,
      createdAt: record.created_at,
    };
  });
}

async function loadQuote(tx: Tx, instanceId: string, key: string | number, lock = false): Promise<QuoteRecord> {
  const row = await selectQuote(tx, instanceId, key, lock);
  if (!row) throw quoteError('quote_not_found', `quote ${key} not found`, { [typeof key === 'number' ? 'id' : 'uuid']: 'quote not found' });
  return row;
}

/** One quote by uuid or number (404 unknown). */
export async function getQuote(tx: Tx, instanceId: string, key: string | number): Promise<Quote> {
  return (await toQuotes(tx, instanceId, [await loadQuote(tx, instanceId, key)]))[0]!;
}

/** Quotes of the instance, newest first, optionally of one status. */
/** One page of quotes with lines and totals, newest first (db/paging.ts). */
export async function listQuotes(
  tx: Tx,
  instanceId: string,
  status: QuoteStatus | undefined,
  page: PageRequest,
): Promise<{ data: Quote[]; total: number; totalCapped: boolean; nextCursor: string | null }> {
  const { rows, ...rest } = await selectQuotePage(tx, instanceId, status, page);
  return { data: await toQuotes(tx, instanceId, rows), ...rest };
}

const itemColumns = (item: ItemData): QuoteItemColumns => ({
  label: item.name.trim(),
  quantity: item.amount,
  price: item.price,
  discount: item.discount == null || item.discount === '' ? null : item.discount,
  discountAbs: item.discountAbs == null || item.discountAbs === '' ? null : item.discountAbs,
  vatRate: item.vat ?? null,
  accountId: item.account?.id ?? null,
});

/** The invoice's field names in a refusal of invoicing's checks, renamed to the quote's. */
const QUOTE_FIELDS: Record<string, string> = { dateInvoice: 'dateQuote', dateDue: 'validUntil' };
function renamedFields(error: unknown): never {
  if (error instanceof AppError && error.fields) {
    const fields = Object.fromEntries(Object.entries(error.fields).map(([key, value]) => [QUOTE_FIELDS[key] ?? key, value]));
    const message = error.message.replace(/^dateDue:/, 'validUntil:').replace('due date', 'validity date').replace('invoice date', 'quote date');
    throw new AppError(error.code, message, fields, error.extra);
  }
  throw error;
}

/**
 * The quote's head as stored, checked by invoicing's rules for an invoice of the same head and lines
 * (400 naming every bad field: `company.uuid`, `address.id`, `paymentProfile.id`, `vat`, `fxRate`,
 * `validUntil` (not before `dateQuote`), `items.N.*`).
 */
async function checkedHead(tx: Tx, instanceId: string, data: QuoteData): Promise<QuoteColumns> {
  const validUntil = data.validUntil ?? addDays(data.dateQuote, DEFAULT_VALIDITY_DAYS);
  const { dateQuote: _date, validUntil: _valid, ...rest } = data;
  const checked = await checkInvoiceData(tx, instanceId, { ...rest, dateInvoice: data.dateQuote, dateDue: validUntil }).catch(renamedFields);
  return {
    companyUuid: data.company.uuid,
    addressId: data.address.id,
    paymentProfileId: data.paymentProfile.id,
    vatRate: checked.vat,
    currencyId: Currency[checked.currency],
    fxRate: checked.fxRate,
    dateQuote: data.dateQuote,
    validUntil,
    description: data.description?.trim() ?? '',
  };
}

/** Creates a draft quote with its lines (400 as `checkedHead`). */
export async function createQuote(tx: Tx, instanceId: string, userId: string | null, data: QuoteData): Promise<Quote> {
  const head = await checkedHead(tx, instanceId, data);
  const uuid = await insertQuote(tx, instanceId, userId, head);
  await replaceQuoteItems(tx, instanceId, uuid, (data.items ?? []).map(itemColumns));
  return getQuote(tx, instanceId, uuid);
}

function assertDraft(row: QuoteRecord): void {
  if (row.status !== 'draft') throw quoteError('quote_not_draft', `quote ${formatQuoteNumber(row.id)} is ${row.status}: only a draft quote can be changed`, { uuid: `quote is ${row.status}` });
}

/** Changes a draft quote (409 `quote_not_draft` otherwise); fields given replace the stored ones, `items` all lines. */
export async function updateQuote(tx: Tx, instanceId: string, uuid: string, data: Partial<QuoteData>): Promise<Quote> {
  const row = await loadQuote(tx, instanceId, uuid, true);
  assertDraft(row);
  const current = await getQuote(tx, instanceId, uuid);
  const merged: QuoteData = {
    company: data.company ?? current.company,
    address: data.address ?? { id: current.address.id },
    paymentProfile: data.paymentProfile ?? current.paymentProfile,
    vat: data.vat ?? current.vat,
    currency: data.currency ?? (current.currency === 'EUR' ? 'EUR' : 'CHF'),
    fxRate: data.fxRate ?? (data.currency && data.currency !== current.currency ? undefined : current.fxRate),
    dateQuote: data.dateQuote ?? current.dateQuote,
    validUntil: data.validUntil === null ? null : (data.validUntil ?? current.validUntil),
    description: data.description ?? current.description,
    items:
      data.items ??
      current.items.map((item) => ({ name: item.name, amount: item.amount, price: item.price, discount: item.discount, discountAbs: item.discountAbs, vat: item.vat, account: item.account })),
  };
  const head = await checkedHead(tx, instanceId, merged);
  await updateQuoteHead(tx, instanceId, uuid, head);
  await replaceQuoteItems(tx, instanceId, uuid, (merged.items ?? []).map(itemColumns));
  return getQuote(tx, instanceId, uuid);
}

/** Deletes a draft quote (409 otherwise): a quote sent to a customer stays on record. */
export async function deleteQuote(tx: Tx, instanceId: string, uuid: string): Promise<void> {
  const row = await loadQuote(tx, instanceId, uuid, true);
  assertDraft(row);
  await deleteQuoteRow(tx, instanceId, uuid);
}

/** The one status each status may move to (issue 15 §4): draft → sent → accepted | declined. */
const NEXT: Record<QuoteStatus, readonly QuoteStatus[]> = { draft: ['sent'], sent: ['accepted', 'declined'], accepted: [], declined: [] };

/**
 * Moves a quote to `status`. 409 `already_done` when it has that status already (a repeat), 409
 * `status_not_allowed` for any other move (sent → draft, anything from accepted or declined). A
 * quote without lines is not sent (400 `items`). Under the quote's row lock, so parallel changes
 * are applied one after the other and see each other's result.
 */
export async function changeQuoteStatus(tx: Tx, instanceId: string, uuid: string, status: QuoteStatus): Promise<Quote> {
  const row = await loadQuote(tx, instanceId, uuid, true);
  if (row.status === status) throw alreadyDone(`quote ${formatQuoteNumber(row.id)} is ${status} already`, { status: `already ${status}` });
  if (!NEXT[row.status].includes(status)) {
    throw quoteError('status_not_allowed', `quote ${formatQuoteNumber(row.id)} is ${row.status}: it cannot become ${status}`, { status: `${row.status} → ${status} is not allowed` });
  }
  if (status === 'sent' && (await selectQuoteItems(tx, instanceId, [uuid])).length === 0) {
    throw quoteError('quote_invalid', 'items: a quote without lines cannot be sent', { items: 'add at least one line' });
  }
  if (!(await updateQuoteStatus(tx, instanceId, uuid, row.status, status))) throw alreadyDone(`quote ${formatQuoteNumber(row.id)} changed meanwhile`);
  return getQuote(tx, instanceId, uuid);
}

/**
 * 'Create invoice' (issue 15 §4): a pending invoice of the accepted quote's customer, address,
 * payment profile, VAT, currency, exchange rate, description and lines, dated `dateInvoice`
 * (default today) and due after the invoice's default term, made by invoicing's `insertInvoice`
 * (nothing is posted). The quote records it. Once: under the quote's row lock and a conditional
 * update, a repeat or a parallel call answers 409 `already_done` and creates nothing. 409
 * `quote_not_accepted` for any other status; 400 from invoicing's checks should a party have gone.
 */
export async function createInvoiceFromQuote(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  uuid: string,
  dateInvoice?: string | null,
): Promise<{ quote: Quote; invoice: Invoice }> {
  const row = await loadQuote(tx, instanceId, uuid, true);
  if (row.status !== 'accepted') throw quoteError('quote_not_accepted', `quote ${formatQuoteNumber(row.id)} is ${row.status}: only an accepted quote becomes an invoice`, { uuid: `quote is ${row.status}` });
  if (row.invoice_uuid) throw alreadyDone(`quote ${formatQuoteNumber(row.id)} has become an invoice already`, { uuid: 'invoice created already' });
  const quote = (await toQuotes(tx, instanceId, [row]))[0]!;
  const invoice = await insertInvoice(tx, instanceId, userId, {
    company: { uuid: quote.company.uuid },
    address: { id: quote.address.id },
    paymentProfile: { id: quote.paymentProfile.id },
    vat: quote.vat,
    currency: quote.currency === 'EUR' ? 'EUR' : 'CHF',
    fxRate: quote.fxRate,
    dateInvoice: dateInvoice ?? todayInSwitzerland(),
    description: quote.description || quote.number,
    items: quote.items.map((item) => ({
      name: item.name,
      amount: item.amount,
      price: item.price,
      discount: item.discount,
      discountAbs: item.discountAbs,
      vat: item.vat,
      account: item.account ? { id: item.account.id } : null,
    })),
  });
  if (!(await setQuoteInvoice(tx, instanceId, uuid, invoice.uuid))) throw alreadyDone(`quote ${formatQuoteNumber(row.id)} has become an invoice already`);
  return { quote: await getQuote(tx, instanceId, uuid), invoice };
}

/**
 * The quote's PDF: the invoice's layout (invoicing's renderer) with the title 'Offerte' / 'Offre' /
 * 'Offerta' / 'Quote', its validity date and no payment part. 404 unknown quote or own company.
 */
export async function quotePdf(tx: Tx, instanceId: string, uuid: string, lang: PdfLang): Promise<{ pdf: Buffer; filename: string }> {
  const quote = await getQuote(tx, instanceId, uuid);
  const creditor = await ownCompany(tx, instanceId);
  if (!creditor) throw quoteError('quote_not_found', 'own company not found: complete the onboarding first');
  const defaults = await instanceDefaults(tx, instanceId);
  const document: Invoice = {
    uuid: quote.uuid,
    id: quote.id,
    refNumber: quote.number,
    refNumberInt: quote.id,
    paymentReference: '',
    status: 1,
    statusName: quote.status,
    company: quote.company,
    address: quote.address,
    paymentProfile: { id: quote.paymentProfile.id, type: 0, iban: null, account: null },
    vat: quote.vat,
    currency: quote.currency,
    fxRate: quote.fxRate,
    baseCurrency: defaults.currency,
    totalBase: toBaseAmount(quote.totals.total, quote.fxRate),
    dateInvoice: quote.dateQuote,
    dateDue: quote.validUntil,
    paymentTermDays: 0,
    description: quote.description,
    bankRef: null,
    ledgerDate: null,
    items: quote.items.map((item) => ({
      ...item,
      label: item.name,
      quantity: item.amount,
      rate: item.price,
      currency: quote.currency,
      fxRate: quote.fxRate,
      logDateAdded: quote.createdAt,
    })),
    totals: quote.totals,
    entries: [],
    shared: false,
  };
  const pdf = await renderInvoicePdf(document, creditor, lang, false, { number: quote.number, validUntil: quote.validUntil });
  return { pdf, filename: `${quote.number}.pdf` };
}
