/** Accounting calls and shapes (docs/api.md "Accounting /api/accounting"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { JournalEntryInput, LedgerAccountInput } from '@bilan/domain';
import { api, uploadText, type ApiBody, type ApiResult, type UploadOptions } from '../../lib/api';

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type LedgerAccount = ApiResult<'post', '/api/accounting/account/detail'>;
export type JournalEntry = ApiResult<'post', '/api/accounting/entry/detail'>;
export type JournalLine = JournalEntry['entryAccounts'][number];

/** entry/detail: the entry and, for a document posting, its document (null for manual and imported entries). */
export type JournalEntryDetail = JournalEntry;
/** The document that posted an entry (invoice, bill, bank transaction, …); it alone may change the entry. */
export type PostingDocument = NonNullable<JournalEntryDetail['document']>;

export interface Paged<T> {
  data: T[];
  total: number;
}

export type EntryFilters = NonNullable<ApiBody<'/api/accounting/entry/list'>>['filters'];

export type AccountPostings = ApiResult<'post', '/api/accounting/entry/account/list'>;
export type Posting = AccountPostings['data'][number];

/** POST /api/accounting/balance/get: amounts in the instance currency, 2 decimals, debit positive. */
export type TrialBalance = ApiResult<'post', '/api/accounting/balance/get'>;

export type ChartImportResult = ApiResult<'post', '/api/accounting/import/chart'>;
export type JournalImportResult = ApiResult<'post', '/api/accounting/import/journal'>;

export const PAGE_SIZE = 50;

/** Query keys start with 'accounting' so one invalidation refreshes every accounting view. */
export const accountingKey = ['accounting'] as const;

export const accountListQuery = (text = '') =>
  queryOptions({
    queryKey: ['accounting', 'account', 'list', text],
    queryFn: () => api.post('/api/accounting/account/list', text ? { filters: { text } } : {}),
    placeholderData: keepPreviousData,
  });

export const accountDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['accounting', 'account', 'detail', id],
    queryFn: () => api.post('/api/accounting/account/detail', { id }),
  });

export const entryListQuery = (filters: EntryFilters, page: number, order: 'asc' | 'desc' = 'desc') =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'list', filters, page, order],
    queryFn: () => api.post('/api/accounting/entry/list', { filters, page, pageSize: PAGE_SIZE, order }),
    placeholderData: keepPreviousData,
  });

export const entryDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'detail', id],
    queryFn: () => api.post('/api/accounting/entry/detail', { id }),
  });

export const accountPostingsQuery = (accountId: number, filters: { dateFrom?: string; dateTo?: string }, page: number) =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'account', accountId, filters, page],
    queryFn: () =>
      api.post('/api/accounting/entry/account/list', {
        filters: { accountId, ...filters },
        page,
        pageSize: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
  });

export const trialBalanceQuery = (date: string, dateFrom: string | null = null) =>
  queryOptions({
    queryKey: ['accounting', 'balance', date, dateFrom],
    queryFn: () => api.post('/api/accounting/balance/get', dateFrom ? { date, dateFrom } : { date }),
    placeholderData: keepPreviousData,
  });

export const insertAccount = (data: LedgerAccountInput) => api.post('/api/accounting/account/insert', { data });
export const updateAccount = (id: number, data: LedgerAccountInput) =>
  api.post('/api/accounting/account/update', { id, data });
export const deleteAccount = (id: number) => api.post('/api/accounting/account/delete', { id });

export const insertEntry = (data: JournalEntryInput) => api.post('/api/accounting/entry/insert', { data });
export const updateEntry = (id: number, data: JournalEntryInput) =>
  api.post('/api/accounting/entry/update', { id, data });
export const deleteEntry = (id: number) => api.post('/api/accounting/entry/delete', { id });

export const importCsv = (
  kind: 'chart' | 'journal',
  csv: string,
  options: Omit<UploadOptions, 'contentType'>,
): Promise<ChartImportResult | JournalImportResult> =>
  kind === 'chart'
    ? uploadText('/api/accounting/import/chart', csv, { ...options, contentType: 'text/csv' })
    : uploadText('/api/accounting/import/journal', csv, { ...options, contentType: 'text/csv' });

/** GET /api/accounting/lock/list (spec §7.1 "Locks"): the latest lock date (the one in force) first. */
export type AccountingLock = ApiResult<'get', '/api/accounting/lock/list'>['locks'][number];

export const lockListQuery = () =>
  queryOptions({ queryKey: ['accounting', 'lock', 'list'], queryFn: () => api.get('/api/accounting/lock/list') });

/** Members of the instance, to name who set a lock (the lock answer carries the user id). */
export const lockMembersQuery = () =>
  queryOptions({ queryKey: ['accounting', 'lock', 'members'], queryFn: () => api.get('/api/instance/member/list') });

/** Locks the books up to a date or up to the ledger date of an entry; 409 `already_done` for an existing date. */
export const insertLock = (target: { date: string } | { endEntry: { id: number } }) => api.post('/api/accounting/lock/insert', target);
export const deleteLock = (uuid: string) => api.post('/api/accounting/lock/delete', { uuid });

/** GET /api/accounting/vat-code/list (issue 13 §1, decision 019): the instance's VAT codes by code. */
export type VatCodeRow = ApiResult<'get', '/api/accounting/vat-code/list'>['data'][number];
export type VatCodeData = ApiBody<'/api/accounting/vat-code/insert'>['data'];
export type VatCodePatch = ApiBody<'/api/accounting/vat-code/update'>['data'];

export const vatCodeListQuery = () =>
  queryOptions({ queryKey: ['accounting', 'vat-code', 'list'], queryFn: () => api.get('/api/accounting/vat-code/list'), staleTime: 60_000 });

export const insertVatCode = (data: VatCodeData) => api.post('/api/accounting/vat-code/insert', { data });
export const updateVatCode = (code: string, data: VatCodePatch) => api.post('/api/accounting/vat-code/update', { code, data });
export const deleteVatCode = (code: string) => api.post('/api/accounting/vat-code/delete', { code });
