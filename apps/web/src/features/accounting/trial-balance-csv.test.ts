import i18next from 'i18next';
import { csvDialectOf } from '@bilan/domain';
import { afterAll, describe, expect, it } from 'vitest';
import de from '../../locales/de/accounting.json';
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

const machine = csvDialectOf(null);

describe('trialBalanceCsv', () => {
  it('writes the CLI columns, RFC 4180 quoting and formula-safe names', () => {
    expect(trialBalanceCsv(trial(null), machine)).toBe(
      'account,name,debit,credit,balance\n' +
        '1020,Bank,1500.00,200.00,1400.00\n' +
        `3200,"'=HYPERLINK(""x""), Erlös ""A""",0.00,1400.00,-1400.00\n`,
    );
  });

  it('adds the opening balance for a period, and names the file after the dates', () => {
    expect(trialBalanceCsv(trial('2025-01-01'), machine).split('\n')[0]).toBe('account,name,opening,debit,credit,balance');
    expect(trialBalanceCsv(trial('2025-01-01'), machine).split('\n')[1]).toBe('1020,Bank,100.00,1500.00,200.00,1400.00');
    expect(trialBalanceFileName(trial(null))).toBe('TrialBalance-2025-12-31.csv');
    expect(trialBalanceFileName(trial('2025-01-01'))).toBe('TrialBalance-2025-01-01_2025-12-31.csv');
  });

  it("writes a person's file in their number format and language (decision 034)", async () => {
    // fr-CH: decimal comma, so ';' between fields; a BOM for Excel; English headers while the UI is English.
    expect(trialBalanceCsv(trial(null), csvDialectOf('fr-CH'))).toBe(
      '\uFEFFAccount;Name;Debit;Credit;Balance\n' + '1020;Bank;1500,00;200,00;1400,00\n' + `3200;"'=HYPERLINK(""x""), Erlös ""A""";0,00;1400,00;-1400,00\n`,
    );
    await i18next.init({ lng: 'de', resources: { de: { translation: de } }, keySeparator: false, nsSeparator: false });
    // de-CH: decimal point, so ',' between fields; German headers.
    expect(trialBalanceCsv(trial('2025-01-01'), csvDialectOf('de-CH')).split('\n').slice(0, 2)).toEqual(['\uFEFFKonto,Name,Anfangssaldo,Soll,Haben,Saldo', '1020,Bank,100.00,1500.00,200.00,1400.00']);
  });
});

afterAll(() => i18next.changeLanguage('en'));
