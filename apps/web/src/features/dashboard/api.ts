import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type ApiResult } from '../../lib/api';

/** GET /api/analytics/counts (spec §7.1). */
export type Counts = ApiResult<'get', '/api/analytics/counts'>;

/** GET /api/accounting/account/dashboard?year (docs/api.md): 12 month-end balances per account. */
export type DashboardBalances = ApiResult<'get', '/api/accounting/account/dashboard'>;

/** The tiles' counts: the documents of `year` (bills by date, invoices by invoice date, …), or all of them for null. */
export const countsQuery = (year: number | null) =>
  queryOptions({
    queryKey: ['analytics', 'counts', year],
    queryFn: () => api.get('/api/analytics/counts', year === null ? {} : { query: { year } }),
    placeholderData: keepPreviousData,
  });

export const dashboardBalancesQuery = (year: number) =>
  queryOptions({
    queryKey: ['accounting', 'account', 'dashboard', year],
    queryFn: () => api.get('/api/accounting/account/dashboard', { query: { year } }),
  });
