/** Accounting calls and shapes (docs/api.md "Accounting /api/accounting"). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Direction, JournalEntryInput, LedgerAccountInput } from '@bilan/domain';
import { api, uploadText, type UploadOptions } from '../../lib/api';

const base = '/api/accounting';

export interface LedgerAccount {
  id: number;
  number: string;
  name: string;
  currency: string;
  type: { id: number };
  functionType: { id: number } | null;
  balance: string;
  hasPostings: boolean;
}

export interface JournalLine {
  id: number;
  account: { id: number; number: string; name: string };
  amount: string;
  direction: Direction;
  originalAmount: string | null;
  exchangeRate: string | null;
  currency: string | null;
  description: string | null;
}

export interface JournalEntry {
  id: number;
  dateLedger: string;
  description: string;
  source: string | null;
  entryAccounts: JournalLine[];
  debitTotal: string;
}

/** The document that posted an entry (invoice, bill, bank transaction, …); it alone may change the entry. */
export interface PostingDocument {
  type: string;
  reference: string;
  uuid: string | null;
  /** Path of the document's page in this app, when it has one. */
  link: string | null;
}

/** entry/detail: the entry and, for a document posting, its document (null for manual and imported entries). */
export interface JournalEntryDetail extends JournalEntry {
  document: PostingDocument | null;
}

export interface Paged<T> {
  data: T[];
  total: number;
}

export interface EntryFilters {
  dateFrom?: string;
  dateTo?: string;
  text?: string;
  accountId?: number;
}

export interface Posting {
  id: number;
  entry: { id: number; dateLedger: string; description: string };
  amount: string;
  direction: Direction;
  debit: string | null;
  credit: string | null;
  balance: string;
}

export interface AccountPostings extends Paged<Posting> {
  openingBalance: string;
  closingBalance: string;
}

/** POST /api/accounting/balance/get: amounts in the instance currency, 2 decimals, debit positive. */
export interface TrialBalance {
  dateFrom: string | null;
  date: string;
  accounts: {
    id: number;
    number: string;
    name: string;
    currency: string;
    type: { id: number };
    openingBalance: string;
    debit: string;
    credit: string;
    balance: string;
  }[];
  totals: { openingBalance: string; debit: string; credit: string; balance: string };
}

export interface ChartImportResult {
  created: number;
  updated: number;
}

export interface JournalImportResult {
  entries: number;
  lines: number;
  dateFrom: string | null;
  dateTo: string | null;
}

export const PAGE_SIZE = 50;

/** Query keys start with 'accounting' so one invalidation refreshes every accounting view. */
export const accountingKey = ['accounting'] as const;

export const accountListQuery = (text = '') =>
  queryOptions({
    queryKey: ['accounting', 'account', 'list', text],
    queryFn: () => api.post<Paged<LedgerAccount>>(`${base}/account/list`, text ? { filters: { text } } : {}),
    placeholderData: keepPreviousData,
  });

export const accountDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['accounting', 'account', 'detail', id],
    queryFn: () => api.post<LedgerAccount>(`${base}/account/detail`, { id }),
  });

export const entryListQuery = (filters: EntryFilters, page: number, order: 'asc' | 'desc' = 'desc') =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'list', filters, page, order],
    queryFn: () => api.post<Paged<JournalEntry>>(`${base}/entry/list`, { filters, page, pageSize: PAGE_SIZE, order }),
    placeholderData: keepPreviousData,
  });

export const entryDetailQuery = (id: number) =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'detail', id],
    queryFn: () => api.post<JournalEntryDetail>(`${base}/entry/detail`, { id }),
  });

export const accountPostingsQuery = (accountId: number, filters: { dateFrom?: string; dateTo?: string }, page: number) =>
  queryOptions({
    queryKey: ['accounting', 'entry', 'account', accountId, filters, page],
    queryFn: () =>
      api.post<AccountPostings>(`${base}/entry/account/list`, {
        filters: { accountId, ...filters },
        page,
        pageSize: PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
  });

export const trialBalanceQuery = (date: string, dateFrom: string | null = null) =>
  queryOptions({
    queryKey: ['accounting', 'balance', date, dateFrom],
    queryFn: () => api.post<TrialBalance>(`${base}/balance/get`, dateFrom ? { date, dateFrom } : { date }),
    placeholderData: keepPreviousData,
  });

export const insertAccount = (data: LedgerAccountInput) => api.post<LedgerAccount>(`${base}/account/insert`, { data });
export const updateAccount = (id: number, data: LedgerAccountInput) =>
  api.post<LedgerAccount>(`${base}/account/update`, { id, data });
export const deleteAccount = (id: number) => api.post<{ ok: true }>(`${base}/account/delete`, { id });

export const insertEntry = (data: JournalEntryInput) => api.post<JournalEntry>(`${base}/entry/insert`, { data });
export const updateEntry = (id: number, data: JournalEntryInput) =>
  api.post<JournalEntry>(`${base}/entry/update`, { id, data });
export const deleteEntry = (id: number) => api.post<{ ok: true }>(`${base}/entry/delete`, { id });

export const importCsv = <T,>(kind: 'chart' | 'journal', csv: string, options: Omit<UploadOptions, 'contentType'>) =>
  uploadText<T>(`${base}/import/${kind}`, csv, { ...options, contentType: 'text/csv' });
