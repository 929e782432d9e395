import { describe, expect, it } from 'vitest';
import type { TrialBalance } from './api';
import { trialBalanceCsv, trialBalanceFileName } from './trial-balance-csv';

const account = (number: string, name: string, openingBalance: string, debit: string, credit: string, balance: string) => ({
  id: Number(number),
  number,
  name,
  currency: 'CHF' as const,
  type: { id: 1 },
  openingBalance,
  debit,
  credit,
  balance,
});

const trial = (dateFrom: string | null): TrialBalance => ({
  dateFrom,
  date: '2025-12-31',
  accounts: [account('1020', 'Bank', '100.00', '1500.00', '200.00', '1400.00'), account('3200', '=HYPERLINK("x"), Erlös "A"', '0.00', '0.00', '1400.00', '-1400.00')],
  totals: { openingBalance: '100.00', debit: '1500.00', credit: '1600.00', balance: '0.00' },
});

describe('trialBalanceCsv', () => {
  it('writes the CLI columns, RFC 4180 quoting and formula-safe names', () => {
    expect(trialBalanceCsv(trial(null))).toBe(
      'account,name,debit,credit,balance\n' +
        '1020,Bank,1500.00,200.00,1400.00\n' +
        `3200,"'=HYPERLINK(""x""), Erlös ""A""",0.00,1400.00,-1400.00\n`,
    );
  });

  it('adds the opening balance for a period, and names the file after the dates', () => {
    expect(trialBalanceCsv(trial('2025-01-01')).split('\n')[0]).toBe('account,name,opening,debit,credit,balance');
    expect(trialBalanceCsv(trial('2025-01-01')).split('\n')[1]).toBe('1020,Bank,100.00,1500.00,200.00,1400.00');
    expect(trialBalanceFileName(trial(null))).toBe('TrialBalance-2025-12-31.csv');
    expect(trialBalanceFileName(trial('2025-01-01'))).toBe('TrialBalance-2025-01-01_2025-12-31.csv');
  });
});
