/** Invoice calls and shapes (docs/api.md "Invoices /api/invoice"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { InvoiceInput, InvoiceItemInput } from '@bilan/domain';
import { api, fetchFile, type ApiBody, type ApiResult } from '../../lib/api';
import { msg } from '../../lib/i18n';

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type Invoice = ApiResult<'post', '/api/invoice/detail'>;
export type InvoiceItem = Invoice['items'][number];
export type Totals = Invoice['totals'];

export type InvoiceFilters = NonNullable<NonNullable<ApiBody<'/api/invoice/list-w-amounts'>>['filters']>;

export type FormOptions = ApiResult<'get', '/api/invoice/form-options'>;

export type Debtors = ApiResult<'post', '/api/invoice/debtors'>;
export type DebtorDocument = Debtors['data'][number]['documents'][number];
export type Buckets = Debtors['data'][number]['buckets'];

export const InvoiceStatusLabel: Record<number, string> = { 1: msg('Pending'), 2: msg('Sent'), 3: msg('Paid'), 4: msg('Denied') };
/** The status inside a sentence ('Invoice 12 is now sent'). */
export const InvoiceStatusWord: Record<number, string> = { 1: msg('pending'), 2: msg('sent'), 3: msg('paid'), 4: msg('denied') };
export const InvoiceStatusColor: Record<number, string> = { 1: 'gray', 2: 'blue', 3: 'green', 4: 'red' };

export const invoiceKey = ['invoice'] as const;

/** Rows a page of the invoices list. */
export const INVOICE_PAGE_SIZE = 50;

export const invoiceListQuery = (filters: InvoiceFilters, page: number, pageSize = INVOICE_PAGE_SIZE) =>
  queryOptions({
    queryKey: [...invoiceKey, 'list', filters, page, pageSize],
    queryFn: ({ signal }) => api.post('/api/invoice/list-w-amounts', { filters, page, pageSize, withItems: false }, { signal }),
    placeholderData: keepPreviousData,
  });

export const invoiceDetailQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...invoiceKey, 'detail', uuid],
    queryFn: ({ signal }) => api.post('/api/invoice/detail', { id: uuid }, { signal }),
  });

export const formOptionsQuery = () =>
  queryOptions({ queryKey: [...invoiceKey, 'form-options'], queryFn: ({ signal }) => api.get('/api/invoice/form-options', { signal }) });

/** An address the invoice form offers (of `address/list`). */
export type CustomerAddress = Pick<ApiResult<'post', '/api/address/list'>['data'][number], 'id' | 'street' | 'houseNumber' | 'zip' | 'city'>;
/** Most addresses one customer's list shows in the form (the API's largest page). */
const CUSTOMER_ADDRESS_LIMIT = 500;
/**
 * The addresses of customer `companyUuid` for the invoice form, by id: the form options name the
 * customers only, so the form asks for the addresses of the one chosen (under the companies
 * feature's key `['companies']`, so a change of a company's addresses there refreshes them).
 */
export const customerAddressesQuery = (companyUuid: string) =>
  queryOptions({
    queryKey: ['companies', 'addresses', companyUuid, 'invoice-form'],
    queryFn: ({ signal }) =>
      api.post('/api/address/list', { filters: { company: { uuid: companyUuid } }, pageSize: CUSTOMER_ADDRESS_LIMIT }, { signal }),
    staleTime: 30_000,
  });

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
/** Records a payment of a sent invoice (`/api/invoice/payment/insert`, issue 14 §3). */
export type InvoicePaymentBody = ApiBody<'/api/invoice/payment/insert'>;
export const payInvoice = (body: InvoicePaymentBody) => api.post('/api/invoice/payment/insert', body);
/** Reverses one payment of an invoice (`/api/invoice/payment/reverse`). */
export const reverseInvoicePayment = (uuid: string, date?: string) => api.post('/api/invoice/payment/reverse', { uuid, ...(date ? { date } : {}) });
/** Asset ledger accounts a payment can reach (bank, cash): the pay dialog's choice. */
export const bankAccountsQuery = () =>
  queryOptions({
    queryKey: [...invoiceKey, 'bank-accounts'],
    queryFn: ({ signal }) => api.post('/api/accounting/account/list', {}, { signal }),
  });
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

export type InvoiceMessage = ApiResult<'post', '/api/invoice/messages'>['data'][number];
export type CustomerContact = ApiResult<'post', '/api/company/contact/list'>['data'][number];

/** The customer's contact people, to choose who receives the invoice by e-mail (issue 15 §1). */
export { companyContactsQuery as customerContactsQuery } from '../../lib/document-language';

/** The e-mails of the invoice, newest first, refreshed while deliveries may still change them. */
export const invoiceMessagesQuery = (uuid: string) =>
  queryOptions({
    queryKey: [...invoiceKey, 'messages', uuid],
    queryFn: ({ signal }) => api.post('/api/invoice/messages', { uuid }, { signal }),
    refetchInterval: (query) => (query.state.data?.data.some((m) => m.status === 'queued' || m.status === 'sending') ? 3000 : false),
  });

export const emailInvoice = (body: ApiBody<'/api/invoice/email'>) => api.post('/api/invoice/email', body);

export type CreditNote = ApiResult<'post', '/api/invoice/credit-note/insert'>;
/** Creates a credit note of a sent invoice (`/api/invoice/credit-note/insert`, issue 15 §2). */
export const insertCreditNote = (body: ApiBody<'/api/invoice/credit-note/insert'>) => api.post('/api/invoice/credit-note/insert', body);
/** Rows a page of an invoice's credit notes (the invoice detail's list). */
export const CREDIT_NOTE_PAGE_SIZE = 20;
/** A page (from 1) of the credit notes of one invoice, oldest first. */
export const creditNotesQuery = (uuid: string, page = 1) =>
  queryOptions({
    queryKey: [...invoiceKey, 'credit-notes', uuid, page],
    queryFn: ({ signal }) => api.post('/api/invoice/credit-note/list', { uuid, page, pageSize: CREDIT_NOTE_PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });
/** The credit note's PDF as a Blob. */
export async function fetchCreditNotePdf(uuid: string, lang: string): Promise<Blob> {
  return (await fetchFile('POST', '/api/invoice/credit-note/pdf', { uuid, lang })).blob();
}
