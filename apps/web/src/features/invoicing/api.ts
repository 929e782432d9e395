/** Invoice calls and shapes (docs/api.md "Invoices /api/invoice"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { InvoiceInput, InvoiceItemInput } from '@bilan/domain';
import { api, fetchFile, type ApiBody, type ApiResult } from '../../lib/api';

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type Invoice = ApiResult<'post', '/api/invoice/detail'>;
export type InvoiceItem = Invoice['items'][number];
export type Totals = Invoice['totals'];

export type InvoiceFilters = NonNullable<NonNullable<ApiBody<'/api/invoice/list-w-amounts'>>['filters']>;

export type FormOptions = ApiResult<'get', '/api/invoice/form-options'>;

export type Debtors = ApiResult<'post', '/api/invoice/debtors'>;
export type DebtorDocument = Debtors['data'][number]['documents'][number];
export type Buckets = Debtors['data'][number]['buckets'];

export const InvoiceStatusLabel: Record<number, string> = { 1: 'Pending', 2: 'Sent', 3: 'Paid', 4: 'Denied' };
export const InvoiceStatusColor: Record<number, string> = { 1: 'gray', 2: 'blue', 3: 'green', 4: 'red' };

export const invoiceKey = ['invoice'] as const;

/** Rows a page of the invoices list. */
export const INVOICE_PAGE_SIZE = 50;

export const invoiceListQuery = (filters: InvoiceFilters, page: number, pageSize = INVOICE_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...invoiceKey, 'list', filters, page, pageSize],
    queryFn: ({ signal }) => api.post('/api/invoice/list-w-amounts', { filters, page, pageSize }, { signal }),
    placeholderData: keepPreviousData,
  });

export const invoiceDetailQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...invoiceKey, 'detail', uuid],
    queryFn: ({ signal }) => api.post('/api/invoice/detail', { id: uuid }, { signal }),
  });

export const formOptionsQuery = () =>
  queryOptions({ queryKey: [...invoiceKey, 'form-options'], queryFn: ({ signal }) => api.get('/api/invoice/form-options', { signal }) });

export const debtorsQuery = (date?: string) =>
  queryOptions({ queryKey: [...invoiceKey, 'debtors', date], queryFn: ({ signal }) => api.post('/api/invoice/debtors', date ? { date } : {}, { signal }) });

export const insertInvoice = (data: InvoiceInput) => api.post('/api/invoice/insert', { data });
export const updateInvoice = (uuid: string, data: Partial<InvoiceInput>) => api.post('/api/invoice/update', { id: uuid, data });
export const deleteInvoice = (uuid: string) => api.post('/api/invoice/delete', { uuid });
export const insertItem = (uuid: string, item: InvoiceItemInput) => api.post('/api/invoice/item/insert', { data: { ...item, invoice: { uuid } } });
export const updateItem = (id: number, item: InvoiceItemInput) => api.post('/api/invoice/item/update', { id, data: item });
export const deleteItem = (id: number) => api.post('/api/invoice/item/delete', { id });
export const changeStatus = (body: ApiBody<'/api/invoice/status/change'>) =>
  api.post('/api/invoice/status/change', body);
export const shareInvoice = (uuid: string) => api.post('/api/invoice/share', { uuid });
export const revokeShare = (uuid: string) => api.post('/api/invoice/share/revoke', { uuid });
export const importInvoices = (data: Record<string, unknown>[]) =>
  api.post('/api/invoice/import', { data });
export const invoiceOfEntry = (id: number) => api.post('/api/invoice/by-entry', { id });

export type PostedEntry = ApiResult<'post', '/api/accounting/entry/detail'>;
export type Posting = PostedEntry['entryAccounts'][number];

/** A journal entry the invoice posted (read through the accounting API). */
export const postedEntryQuery = (id: number) =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'detail', id],
    queryFn: ({ signal }) => api.post('/api/accounting/entry/detail', { id }, { signal }),
  });

/** Fetches the PDF as a Blob (POST with the bearer token; the answer is binary). */
export async function fetchInvoicePdf(uuid: string, lang: string, onlyReceipt = false): Promise<Blob> {
  return (await fetchFile('POST', '/api/invoice/pdf', { uuid, lang, onlyReceipt })).blob();
}
