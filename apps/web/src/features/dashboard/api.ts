import { queryOptions } from '@tanstack/react-query';
import { untypedApi, withQuery } from '../../lib/api';

/** GET /api/analytics/counts (spec §7.1). */
export interface Counts {
  Mail: number;
  Payable: number;
  TransactionGroup: number;
  Invoice: number;
}

/** GET /api/accounting/account/dashboard?year (docs/api.md): 12 month-end balances per account. */
export interface DashboardBalances {
  year: number;
  endDates: string[];
  accounts: { id: number; number: string; name: string; currency: string; balances: string[] }[];
}

export const countsQuery = () =>
  queryOptions({ queryKey: ['analytics', 'counts'], queryFn: () => untypedApi.get<Counts>('/api/analytics/counts') });

export const dashboardBalancesQuery = (year: number) =>
  queryOptions({
    queryKey: ['accounting', 'account', 'dashboard', year],
    queryFn: () => untypedApi.get<DashboardBalances>(withQuery('/api/accounting/account/dashboard', { year })),
  });
