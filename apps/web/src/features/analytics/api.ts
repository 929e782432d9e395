/** Analytics of a year (docs/api.md "Analytics"; spec §7.1 `/accounting/analytics/{kind} {year}`). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type ApiResult } from '../../lib/api';

export type Analytics = ApiResult<'post', '/api/accounting/analytics/{kind}'>;
export type AnalyticsKind = Analytics['kind'];
export type AnalyticsRow = Analytics['rows'][number];

export interface KindInfo {
  kind: AnalyticsKind;
  /** Tab label. */
  label: string;
  /** Header of the name column. */
  party: string;
  /** Header of the documents column (party kinds), else null. */
  documents: string | null;
  /** What the amounts are, under the tabs. */
  explanation: string;
  /** Shown when the year has no row. */
  /** The sentence for an empty year; `year` is the fiscal year's label ("2024", "2024/25"). */
  empty: (year: string) => string;
  /** CSV file name prefix. */
  file: string;
}

export const KINDS: readonly KindInfo[] = [
  {
    kind: 'revenue-by-customer',
    label: 'Revenue by customer',
    party: 'Customer',
    documents: 'Invoices',
    explanation: 'Sent invoices by ledger date, net of VAT; a denied invoice is subtracted at its denial date.',
    empty: (year) => `No invoice was sent or denied in ${year}.`,
    file: 'RevenueByCustomer',
  },
  {
    kind: 'expenses-by-supplier',
    label: 'Expenses by supplier',
    party: 'Supplier',
    documents: 'Bills',
    explanation: 'Approved bills by bill date, net of input VAT, on expense accounts; staff expenses as one row.',
    empty: (year) => `No bill was booked in ${year}.`,
    file: 'ExpensesBySupplier',
  },
  {
    kind: 'revenue-by-account',
    label: 'Revenue by account',
    party: 'Ledger account',
    documents: null,
    explanation: 'Credit − debit of each revenue account in the year, without the year-end closing entries.',
    empty: (year) => `No revenue account has postings in ${year}.`,
    file: 'RevenueByAccount',
  },
  {
    kind: 'expenses-by-account',
    label: 'Expenses by account',
    party: 'Ledger account',
    documents: null,
    explanation: 'Debit − credit of each expense account in the year, without the year-end closing entries.',
    empty: (year) => `No expense account has postings in ${year}.`,
    file: 'ExpensesByAccount',
  },
];

export const kindInfo = (kind: AnalyticsKind): KindInfo => KINDS.find((info) => info.kind === kind)!;
export const isAnalyticsKind = (value: string | null): value is AnalyticsKind => KINDS.some((info) => info.kind === value);

export const analyticsQuery = (kind: AnalyticsKind, year: number) =>
  queryOptions({
    queryKey: ['analytics', kind, year],
    queryFn: ({ signal }) => api.post('/api/accounting/analytics/{kind}', { year }, { params: { kind }, signal }),
    placeholderData: keepPreviousData,
  });
