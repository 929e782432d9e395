/** Analytics of a year (docs/api.md "Analytics"; spec §7.1 `/accounting/analytics/{kind} {year}`). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type ApiResult } from '../../lib/api';
import { msg } from '../../lib/i18n';

export type Analytics = ApiResult<'post', '/api/accounting/analytics/{kind}'>;
export type AnalyticsKind = Analytics['kind'];
export type AnalyticsRow = Analytics['rows'][number];

/** The texts are English, shown through t(). */
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
  /** The sentence for an empty year, with `{{year}}` for the fiscal year's label ("2024", "2024/25"). */
  empty: string;
  /** What could not be loaded, when the analysis fails. */
  failure: string;
  /** CSV file name prefix. */
  file: string;
}

export const KINDS: readonly KindInfo[] = [
  {
    kind: 'revenue-by-customer',
    label: msg('Revenue by customer'),
    party: msg('Customer'),
    documents: msg('Invoices'),
    explanation: msg('Sent invoices by ledger date, net of VAT; a denied invoice is subtracted at its denial date.'),
    empty: msg('No invoice was sent or denied in {{year}}.'),
    failure: msg('Could not load the revenue by customer'),
    file: 'RevenueByCustomer',
  },
  {
    kind: 'expenses-by-supplier',
    label: msg('Expenses by supplier'),
    party: msg('Supplier'),
    documents: msg('Bills'),
    explanation: msg('Approved bills by bill date, net of input VAT, on expense accounts; staff expenses as one row.'),
    empty: msg('No bill was booked in {{year}}.'),
    failure: msg('Could not load the expenses by supplier'),
    file: 'ExpensesBySupplier',
  },
  {
    kind: 'revenue-by-account',
    label: msg('Revenue by account'),
    party: msg('Ledger account'),
    documents: null,
    explanation: msg('Credit − debit of each revenue account in the year, without the year-end closing entries.'),
    empty: msg('No revenue account has postings in {{year}}.'),
    failure: msg('Could not load the revenue by account'),
    file: 'RevenueByAccount',
  },
  {
    kind: 'expenses-by-account',
    label: msg('Expenses by account'),
    party: msg('Ledger account'),
    documents: null,
    explanation: msg('Debit − credit of each expense account in the year, without the year-end closing entries.'),
    empty: msg('No expense account has postings in {{year}}.'),
    failure: msg('Could not load the expenses by account'),
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
