/** Quote calls and shapes (/api/quote/*, issue 15 §4). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, fetchFile, type ApiBody, type ApiResult } from '../../lib/api';
import type { DocumentFormPayload, DocumentFormValues } from '../../lib/document-form';
import { msg } from '../../lib/i18n';

export type Quote = ApiResult<'post', '/api/quote/detail'>;
export type QuoteStatus = Quote['status'];
export type QuoteData = ApiBody<'/api/quote/insert'>['data'];

export const QUOTE_STATUS_LABEL: Record<QuoteStatus, string> = { draft: msg('Draft'), sent: msg('Sent'), accepted: msg('Accepted'), declined: msg('Declined') };
export const QUOTE_STATUS_COLOR: Record<QuoteStatus, string> = { draft: 'gray', sent: 'blue', accepted: 'green', declined: 'red' };

export const quoteKey = ['quote'] as const;

/** Rows a page of the quotes list. */
export const QUOTE_PAGE_SIZE = 50;

export const quoteListQuery = (status: QuoteStatus | undefined, page = 1) =>
  queryOptions({
    queryKey: [...quoteKey, 'list', status, page],
    queryFn: ({ signal }) => api.post('/api/quote/list', { ...(status ? { status } : {}), page, pageSize: QUOTE_PAGE_SIZE }, { signal }),
    placeholderData: keepPreviousData,
  });
export const quoteDetailQuery = (uuid: string) =>
  queryOptions({ queryKey: [...quoteKey, 'detail', uuid], queryFn: ({ signal }) => api.post('/api/quote/detail', { id: uuid }, { signal }) });
export const formOptionsQuery = () =>
  queryOptions({ queryKey: ['invoice', 'form-options'], queryFn: ({ signal }) => api.get('/api/invoice/form-options', { signal }) });

/** The form's payload as a quote's data: its two dates are the quote date and the validity. */
export function quoteDataOf({ head, items }: DocumentFormPayload): QuoteData {
  const { dateInvoice, dateDue, ...rest } = head;
  return { ...rest, dateQuote: dateInvoice, validUntil: dateDue ?? null, items: items.map(({ id: _id, ...item }) => item) };
}

/** A quote in the invoice form's names. */
export const formValuesOf = (quote: Quote): DocumentFormValues => ({
  refNumber: quote.number,
  company: quote.company,
  address: quote.address,
  paymentProfile: { id: quote.paymentProfile.id, type: 0, iban: null, account: null },
  vat: quote.vat,
  currency: quote.currency,
  fxRate: quote.fxRate,
  dateInvoice: quote.dateQuote,
  dateDue: quote.validUntil,
  description: quote.description,
  items: quote.items,
});

export const insertQuote = (data: QuoteData) => api.post('/api/quote/insert', { data });
export const updateQuote = (uuid: string, data: QuoteData) => api.post('/api/quote/update', { uuid, data });
export const deleteQuote = (uuid: string) => api.post('/api/quote/delete', { uuid });
export const changeQuoteStatus = (uuid: string, status: QuoteStatus) => api.post('/api/quote/status/change', { uuid, status });
export const createInvoiceFromQuote = (uuid: string) => api.post('/api/quote/invoice', { uuid });
export const quotePdf = async (uuid: string, lang: 'en' | 'de' | 'fr' | 'it') => (await fetchFile('POST', '/api/quote/pdf', { uuid, lang })).blob();
