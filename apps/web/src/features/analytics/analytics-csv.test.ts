import { csvDialectOf } from '@bilan/domain';
import { describe, expect, it } from 'vitest';
import type { Analytics } from './api';
import { analyticsCsv, analyticsFileName } from './analytics-csv';

const base = { year: 2024, label: '2024', dateFrom: '2024-01-01', dateTo: '2024-12-31', total: '3545.00' };

describe('analyticsCsv', () => {
  it('writes customers with their invoices, amounts and shares, formula-safe and RFC 4180 quoted', () => {
    const analytics: Analytics = {
      ...base,
      kind: 'revenue-by-customer',
      rows: [
        { id: null, uuid: 'u1', number: null, name: 'Muster, Söhne & Co', label: 'Muster, Söhne & Co', amount: '1950.00', share: '55.0', documents: 3, link: '/company/u1/ap-ar' },
        { id: null, uuid: 'u2', number: null, name: '=cmd()', label: '=cmd()', amount: '1595.00', share: '45.0', documents: 1, link: '/company/u2/ap-ar' },
      ],
    };
    expect(analyticsCsv(analytics, csvDialectOf(null))).toBe('customer,invoices,amount,share\n"Muster, Söhne & Co",3,1950.00,55.0\n\'=cmd(),1,1595.00,45.0\n');
    expect(analyticsFileName(analytics)).toBe('RevenueByCustomer-2024.csv');
  });

  it('writes accounts with number and name; a negative amount stays a plain number', () => {
    const analytics: Analytics = {
      ...base,
      kind: 'expenses-by-account',
      total: '400.00',
      rows: [
        { id: 7, uuid: null, number: '4000', name: 'Materialeinkauf', label: '4000 Materialeinkauf', amount: '500.00', share: '125.0', documents: null, link: '/accounting/account/7/detail' },
        { id: 8, uuid: null, number: '4900', name: 'Skonti', label: '4900 Skonti', amount: '-100.00', share: '-25.0', documents: null, link: '/accounting/account/8/detail' },
      ],
    };
    expect(analyticsCsv(analytics, csvDialectOf(null))).toBe('account,name,amount,share\n4000,Materialeinkauf,500.00,125.0\n4900,Skonti,-100.00,-25.0\n');
    expect(analyticsFileName(analytics)).toBe('ExpensesByAccount-2024.csv');
  });

  it("writes a person's file with the decimal comma of fr-CH and ';' between fields", () => {
    const analytics: Analytics = {
      ...base,
      kind: 'revenue-by-customer',
      rows: [{ id: null, uuid: 'u1', number: null, name: 'Muster; Söhne', label: 'Muster; Söhne', amount: '-1950.50', share: '55.0', documents: 3, link: '/company/u1/ap-ar' }],
    };
    expect(analyticsCsv(analytics, csvDialectOf('fr-CH'))).toBe('\uFEFFCustomer;Invoices;Amount;Share\n"Muster; Söhne";3;-1950,50;55,0\n');
  });
});
