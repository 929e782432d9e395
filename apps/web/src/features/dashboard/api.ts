import { queryOptions } from '@tanstack/react-query';
import { api, type ApiResult } from '../../lib/api';

/** GET /api/analytics/counts (spec §7.1). */
export type Counts = ApiResult<'get', '/api/analytics/counts'>;

/** GET /api/accounting/account/dashboard?year (docs/api.md): 12 month-end balances per account. */
export type DashboardBalances = ApiResult<'get', '/api/accounting/account/dashboard'>;

export const countsQuery = () =>
  queryOptions({ queryKey: ['analytics', 'counts'], queryFn: () => api.get('/api/analytics/counts') });

export const dashboardBalancesQuery = (year: number) =>
  queryOptions({
    queryKey: ['accounting', 'account', 'dashboard', year],
    queryFn: () => api.get('/api/accounting/account/dashboard', { query: { year } }),
  });
