/**
 * The statement structure (statement-structure.ts): every account of the Swiss SME chart lands on
 * the OR 959a/959b line of its group, misfits go by type, the ranges cover every group of the
 * chart without overlapping, and every line has its article and the four languages' labels.
 * Pure functions: no server (the file still runs in both engine projects, in milliseconds).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { AccountType } from '@bilan/domain';
import {
  ACCOUNT_RANGES,
  BALANCE_SHEET_LINES,
  BALANCE_SHEET_SIDES,
  INCOME_LINES,
  INCOME_SECTIONS,
  STATEMENT_LANGS,
  isBalanceSheetType,
  statementLineOf,
} from '../../src/modules/accounting/statement-structure.js';
import { yearBefore } from '../../src/modules/accounting/statements.service.js';
import { formatSwissAmount } from '../../src/modules/accounting/statements.pdf.js';

const chart = parse(readFileSync(new URL('../../src/modules/accounting/seed/chart-de.csv', import.meta.url), 'utf8'), { columns: true }) as {
  number: string;
  name: string;
  kind: 'group' | 'account';
  type: string;
}[];
const TYPE_IDS: Record<string, number> = { asset: AccountType.assets, liability: AccountType.liability, equity: AccountType.equity, revenue: AccountType.revenue, expense: AccountType.expenses };
const lineOf = (number: string, type: keyof typeof TYPE_IDS) => statementLineOf({ number, typeId: TYPE_IDS[type]! });

describe('statementLineOf on the Swiss SME chart', () => {
  it.each([
    ['1000', 'asset', 'cash'],
    ['1020', 'asset', 'cash'],
    ['1100', 'asset', 'tradeReceivables'],
    ['1170', 'asset', 'otherReceivables'],
    ['1176', 'asset', 'otherReceivables'],
    ['1200', 'asset', 'inventories'],
    ['1280', 'asset', 'inventories'],
    ['1300', 'asset', 'prepaidExpenses'],
    ['1510', 'asset', 'tangibleAssets'],
    ['2000', 'liability', 'tradePayables'],
    ['2030', 'liability', 'tradePayables'],
    ['2100', 'liability', 'shortTermInterestBearing'],
    ['2200', 'liability', 'otherShortTermLiabilities'],
    ['2270', 'liability', 'otherShortTermLiabilities'],
    ['2300', 'liability', 'accruedLiabilities'],
    ['2330', 'liability', 'accruedLiabilities'],
    ['2450', 'liability', 'longTermInterestBearing'],
    ['2500', 'liability', 'otherLongTermLiabilities'],
    ['2800', 'equity', 'shareCapital'],
    ['2900', 'equity', 'statutoryCapitalReserve'],
    ['2950', 'equity', 'statutoryRetainedEarnings'],
    ['2960', 'equity', 'voluntaryRetainedEarnings'],
    ['2970', 'equity', 'profitCarriedForward'],
    ['2979', 'equity', 'annualResult'],
    ['2980', 'equity', 'ownShares'],
    ['3200', 'revenue', 'netRevenue'],
    ['3700', 'revenue', 'netRevenue'],
    ['3805', 'revenue', 'netRevenue'],
    ['3900', 'revenue', 'inventoryChange'],
    ['4200', 'expense', 'materialExpense'],
    ['4900', 'expense', 'materialExpense'],
    ['5000', 'expense', 'personnelExpense'],
    ['5730', 'expense', 'personnelExpense'],
    ['6000', 'expense', 'otherOperatingExpenses'],
    ['6570', 'expense', 'otherOperatingExpenses'],
    ['6790', 'expense', 'otherOperatingExpenses'],
    ['6820', 'expense', 'depreciation'],
    ['6940', 'expense', 'financialExpense'],
    ['6942', 'expense', 'financialExpense'],
    ['6950', 'revenue', 'financialIncome'],
    ['6952', 'revenue', 'financialIncome'],
    ['8000', 'expense', 'nonOperatingExpense'],
    ['8100', 'revenue', 'nonOperatingIncome'],
    ['8500', 'expense', 'extraordinaryExpense'],
    ['8510', 'revenue', 'extraordinaryIncome'],
    ['8700', 'expense', 'extraordinaryExpense'],
    ['8710', 'revenue', 'extraordinaryIncome'],
    ['8900', 'expense', 'directTaxes'],
    ['9100', 'equity', 'otherEquity'],
  ] as const)('%s (%s) → %s', (number, type, line) => {
    expect(lineOf(number, type)).toBe(line);
  });

  it('puts every account of the chart on a line of the statement its type belongs to', () => {
    const accounts = chart.filter((row) => row.kind === 'account');
    expect(accounts.length).toBeGreaterThan(100);
    for (const account of accounts) {
      const typeId = TYPE_IDS[account.type]!;
      const line = statementLineOf({ number: account.number, typeId });
      const onBalanceSheet = line in BALANCE_SHEET_LINES;
      expect({ account: account.number, onBalanceSheet }).toEqual({ account: account.number, onBalanceSheet: isBalanceSheetType(typeId) });
      expect(onBalanceSheet || line in INCOME_LINES).toBe(true);
    }
  });

  it('covers every group of classes 1–8 by a range, and the ranges are sorted without overlap', () => {
    for (const group of chart.filter((row) => row.kind === 'group' && row.number.length >= 2 && Number(row.number[0]) <= 8)) {
      const first = Number(group.number.padEnd(4, '0'));
      expect({ group: group.number, covered: ACCOUNT_RANGES.some((r) => first >= r.from && first <= r.to) }).toEqual({ group: group.number, covered: true });
    }
    for (let i = 0; i < ACCOUNT_RANGES.length; i += 1) {
      const range = ACCOUNT_RANGES[i]!;
      expect(range.from).toBeLessThanOrEqual(range.to);
      if (i > 0) expect(range.from).toBeGreaterThan(ACCOUNT_RANGES[i - 1]!.to);
    }
  });

  it('sends accounts outside the chart, or whose type contradicts their group, by type', () => {
    expect(lineOf('1020', 'liability')).toBe('otherShortTermLiabilities');
    expect(lineOf('3000', 'expense')).toBe('otherOperatingExpenses');
    expect(lineOf('6000', 'revenue')).toBe('otherOperatingIncome');
    expect(lineOf('2979', 'asset')).toBe('otherCurrentAssets');
    expect(lineOf('4000', 'equity')).toBe('otherEquity');
    expect(lineOf('1999', 'asset')).toBe('otherCurrentAssets');
    expect(lineOf('2700', 'liability')).toBe('otherShortTermLiabilities');
    expect(lineOf('9999', 'revenue')).toBe('otherOperatingIncome');
    expect(lineOf('7777', 'asset')).toBe('otherCurrentAssets');
    // Longer numbers refine a 4-digit account: their first four digits decide.
    expect(lineOf('102001', 'asset')).toBe('cash');
    expect(lineOf('68200', 'expense')).toBe('depreciation');
    // An unknown type id counts as an expense (spec §9's default class).
    expect(statementLineOf({ number: '9000', typeId: 42 })).toBe('otherOperatingExpenses');
  });
});

describe('labels and references', () => {
  it('gives every line its article of the Code of Obligations and a label in de, fr, it and en', () => {
    for (const [key, line] of [...Object.entries(BALANCE_SHEET_LINES), ...Object.entries(INCOME_LINES)]) {
      expect({ key, ref: line.ref }).toEqual({ key, ref: expect.stringMatching(/^OR 959[ab] Abs\. \d( Ziff\. \d{1,2}( Bst\. [a-e])?)?$/) });
      for (const lang of STATEMENT_LANGS) expect(line.labels[lang].trim().length, `${key} ${lang}`).toBeGreaterThan(3);
    }
    for (const side of BALANCE_SHEET_SIDES) for (const section of side.sections) for (const lang of STATEMENT_LANGS) expect(section.labels[lang]).toBeTruthy();
    for (const section of INCOME_SECTIONS) for (const lang of STATEMENT_LANGS) expect(section.result[lang]).toBeTruthy();
  });

  it('uses the official terms', () => {
    expect(BALANCE_SHEET_SIDES[0].sections.map((s) => s.labels.fr)).toEqual(['Actif circulant', 'Actif immobilisé']);
    expect(BALANCE_SHEET_SIDES[1].sections.map((s) => s.labels.fr)).toEqual(['Capitaux étrangers à court terme', 'Capitaux étrangers à long terme', 'Capitaux propres']);
    expect(BALANCE_SHEET_SIDES[1].sections.map((s) => s.labels.de)).toEqual(['Kurzfristiges Fremdkapital', 'Langfristiges Fremdkapital', 'Eigenkapital']);
    expect(BALANCE_SHEET_SIDES[0].sections.map((s) => s.labels.it)).toEqual(['Attivo circolante', 'Attivo fisso']);
    expect(INCOME_LINES.netRevenue.labels.de).toBe('Nettoerlöse aus Lieferungen und Leistungen');
    expect(INCOME_SECTIONS[INCOME_SECTIONS.length - 1]!.result.de).toBe('Jahresgewinn oder Jahresverlust');
  });
});

describe('helpers', () => {
  it.each([
    ['2025-12-31', '2024-12-31'],
    ['2025-02-28', '2024-02-29'],
    ['2024-02-29', '2023-02-28'],
    ['2025-01-01', '2024-01-01'],
    ['2025-06-15', '2024-06-15'],
    ['2024-04-30', '2023-04-30'],
  ])('yearBefore(%s) = %s', (date, expected) => {
    expect(yearBefore(date)).toBe(expected);
  });

  it.each([
    ['0.00', '0.00'],
    ['5', '5.00'],
    ['1234.5', "1'234.50"],
    ['-1234.50', "-1'234.50"],
    ['-0.00', '0.00'],
    ['1234567890.12', "1'234'567'890.12"],
    ['999.99', '999.99'],
  ])('formatSwissAmount(%s) = %s', (value, expected) => {
    expect(formatSwissAmount(value)).toBe(expected);
  });
});
