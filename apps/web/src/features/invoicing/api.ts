/** Invoice calls and shapes (docs/api.md "Invoices /api/invoice"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { InvoiceInput, InvoiceItemInput } from '@bilan/domain';
import { untypedApi, getAccessToken, ApiError } from '../../lib/api';

export interface InvoiceItem {
  id: number;
  name: string;
  amount: string;
  price: string;
  discount: string | null;
  discountAbs: string | null;
  /** The line's own VAT rate (fraction), or null for the invoice's. */
  vat: string | null;
  /** The chosen revenue account, or null: the account of the line's VAT rate. */
  account: { id: number; number: string; name: string } | null;
  currency: string;
  fxRate: string;
  total: string;
}

export interface Totals {
  net: string;
  vatRate: string;
  vat: string;
  vatLines: { rate: string; base: string; vat: string }[];
  gross: string;
  rounding: string;
  total: string;
}

export interface Invoice {
  uuid: string;
  id: number;
  refNumber: string;
  paymentReference: string;
  status: number;
  statusName: string;
  company: { uuid: string; name: string };
  address: { id: number; street: string; houseNumber: string | null; zip: string; city: string; country: { id: number } };
  paymentProfile: { id: number; type: number; iban: string | null; account: { id: number } | null };
  vat: string;
  currency: string;
  fxRate: string;
  baseCurrency: string;
  totalBase: string;
  dateInvoice: string;
  dateDue: string;
  paymentTermDays: number;
  description: string;
  bankRef: string | null;
  ledgerDate: string | null;
  items: InvoiceItem[];
  totals: Totals;
  entries: { id: number; kind: 'sent' | 'paid' | 'denied' }[];
  shared: boolean;
}

export interface InvoiceFilters {
  status?: number;
  company?: { uuid: string };
  dateFrom?: string;
  dateTo?: string;
  text?: string;
}

export interface FormOptions {
  companies: { uuid: string; name: string; addresses: Invoice['address'][] }[];
  paymentProfiles: { id: number; type: number; iban: string; qrIban: boolean; account: { id: number } | null }[];
  vatRate: string | null;
  vatRates: string[];
  /** The books' currency. */
  currency: string;
  currencies: string[];
  revenueAccounts: { id: number; number: string; name: string }[];
  defaultRevenue: { rate: string; number: string; name: string }[];
}

export interface DebtorDocument {
  uuid: string;
  refNumber: string;
  dateInvoice: string;
  dateDue: string;
  daysOverdue: number;
  currency: string;
  total: string;
  totalBase: string;
}
export interface Debtors {
  date: string;
  currency: string;
  data: { company: { uuid: string; name: string }; invoices: number; buckets: Buckets; total: string; documents: DebtorDocument[] }[];
  totals: Buckets & { total: string };
}
export interface Buckets {
  notDue: string;
  d0_30: string;
  d31_60: string;
  d61_90: string;
  d90plus: string;
}

export const InvoiceStatusLabel: Record<number, string> = { 1: 'Pending', 2: 'Sent', 3: 'Paid', 4: 'Denied' };
export const InvoiceStatusColor: Record<number, string> = { 1: 'gray', 2: 'blue', 3: 'green', 4: 'red' };

export const invoiceKey = ['invoice'] as const;

/** Rows a page of the invoices list. */
export const INVOICE_PAGE_SIZE = 50;

export const invoiceListQuery = (filters: InvoiceFilters, page: number, pageSize = INVOICE_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...invoiceKey, 'list', filters, page, pageSize],
    queryFn: ({ signal }) => untypedApi.post<{ data: Invoice[]; total: number }>('/api/invoice/list-w-amounts', { filters, page, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  });

export const invoiceDetailQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...invoiceKey, 'detail', uuid],
    queryFn: ({ signal }) => untypedApi.post<Invoice>('/api/invoice/detail', { id: uuid }, { signal }),
  });

export const formOptionsQuery = () =>
  queryOptions({ queryKey: [...invoiceKey, 'form-options'], queryFn: ({ signal }) => untypedApi.get<FormOptions>('/api/invoice/form-options', { signal }) });

export const debtorsQuery = (date?: string) =>
  queryOptions({ queryKey: [...invoiceKey, 'debtors', date], queryFn: ({ signal }) => untypedApi.post<Debtors>('/api/invoice/debtors', date ? { date } : {}, { signal }) });

export const insertInvoice = (data: InvoiceInput) => untypedApi.post<Invoice>('/api/invoice/insert', { data });
export const updateInvoice = (uuid: string, data: Partial<InvoiceInput>) => untypedApi.post<Invoice>('/api/invoice/update', { id: uuid, data });
export const deleteInvoice = (uuid: string) => untypedApi.post('/api/invoice/delete', { uuid });
export const insertItem = (uuid: string, item: InvoiceItemInput) => untypedApi.post<Invoice>('/api/invoice/item/insert', { data: { ...item, invoice: { uuid } } });
export const updateItem = (id: number, item: InvoiceItemInput) => untypedApi.post<Invoice>('/api/invoice/item/update', { id, data: item });
export const deleteItem = (id: number) => untypedApi.post<Invoice>('/api/invoice/item/delete', { id });
export const changeStatus = (body: { uuid: string; status: number; bankRef?: string; ledgerDate?: string; amountBase?: string }) =>
  untypedApi.post<Invoice>('/api/invoice/status/change', body);
export const shareInvoice = (uuid: string) => untypedApi.post<{ token: string }>('/api/invoice/share', { uuid });
export const revokeShare = (uuid: string) => untypedApi.post('/api/invoice/share/revoke', { uuid });
export const importInvoices = (data: Record<string, unknown>[]) =>
  untypedApi.post<{ created: number; invoices: { uuid: string; id: number; total: string }[] }>('/api/invoice/import', { data });
export const invoiceOfEntry = (id: number) => untypedApi.post<{ uuid: string; refNumber: string }>('/api/invoice/by-entry', { id });

/** A posting of an invoice's journal entry (docs/api.md "JournalLine"), as the detail page shows it. */
export interface Posting {
  id: number;
  account: { id: number; number: string; name: string };
  amount: string;
  direction: 1 | -1;
  currency: string;
  originalAmount: string;
  exchangeRate: string;
  description: string | null;
}
export interface PostedEntry {
  id: number;
  dateLedger: string;
  description: string;
  entryAccounts: Posting[];
  debitTotal: string;
}

/** A journal entry the invoice posted (read through the accounting API). */
export const postedEntryQuery = (id: number) =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'detail', id],
    queryFn: ({ signal }) => untypedApi.post<PostedEntry>('/api/accounting/entry/detail', { id }, { signal }),
  });

/** Fetches the PDF as a Blob (POST with the bearer token; the answer is binary). */
export async function fetchInvoicePdf(uuid: string, lang: string, onlyReceipt = false): Promise<Blob> {
  const token = getAccessToken();
  const response = await fetch('/api/invoice/pdf', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ uuid, lang, onlyReceipt }),
  });
  if (!response.ok) {
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the text
    }
    throw new ApiError(response.status, body, 'POST', '/api/invoice/pdf');
  }
  return response.blob();
}
