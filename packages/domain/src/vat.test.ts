import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SWISS_VAT_CODES,
  VatSplitError,
  inputVatCode,
  splitVatLine,
  vatNormalDirection,
  vatPercentAt,
  vatRateTypeOf,
  vatZifferAt,
  type VatSplitCode,
} from './vat.js';

const code = (name: string): VatSplitCode => {
  const found = SWISS_VAT_CODES.find((c) => c.code === name);
  if (!found) throw new Error(name);
  return found;
};

describe('vatPercentAt: the rate follows the supply date', () => {
  it('changes on 2024-01-01 (8.1 / 2.6 / 3.8) and 2018-01-01 (7.7 / 2.5 / 3.7)', () => {
    expect(['standard', 'reduced', 'accommodation'].map((t) => vatPercentAt(t as 'standard', '2024-01-01'))).toEqual(['8.1', '2.6', '3.8']);
    expect(['standard', 'reduced', 'accommodation'].map((t) => vatPercentAt(t as 'standard', '2023-12-31'))).toEqual(['7.7', '2.5', '3.7']);
    expect(['standard', 'reduced', 'accommodation'].map((t) => vatPercentAt(t as 'standard', '2018-01-01'))).toEqual(['7.7', '2.5', '3.7']);
    expect(['standard', 'reduced', 'accommodation'].map((t) => vatPercentAt(t as 'standard', '2017-12-31'))).toEqual(['8.0', '2.5', '3.8']);
  });

  it('is 0 for the zero type at any date, and 7.6 % before 2011', () => {
    expect(vatPercentAt('zero', '2024-05-01')).toBe('0');
    expect(vatPercentAt('zero', '1999-05-01')).toBe('0');
    expect(vatPercentAt('standard', '2010-12-31')).toBe('7.6');
    expect(vatPercentAt('standard', '2011-01-01')).toBe('8.0');
  });

  it('maps a rate of any period to its type', () => {
    expect(vatRateTypeOf('0.081')).toBe('standard');
    expect(vatRateTypeOf('0.077')).toBe('standard');
    expect(vatRateTypeOf('0.08')).toBe('standard');
    expect(vatRateTypeOf('0.026')).toBe('reduced');
    expect(vatRateTypeOf('0.025')).toBe('reduced');
    expect(vatRateTypeOf('0.038')).toBe('accommodation');
    expect(vatRateTypeOf('0.037')).toBe('accommodation');
    expect(vatRateTypeOf('0')).toBe('zero');
    expect(vatRateTypeOf('8.1', 'percent')).toBe('standard');
    expect(vatRateTypeOf('0.05')).toBeUndefined();
    expect(vatRateTypeOf('x')).toBeUndefined();
  });

  it('gives the Ziffer of the period: 303 → 302 → 301', () => {
    expect(vatZifferAt('303', '2024-01-01')).toBe('303');
    expect(vatZifferAt('303', '2023-12-31')).toBe('302');
    expect(vatZifferAt('383', '2018-01-01')).toBe('382');
    expect(vatZifferAt('343', '2017-12-31')).toBe('341');
    expect(vatZifferAt('400', '2017-12-31')).toBe('400');
  });
});

describe('splitVatLine', () => {
  it('splits 108.10 gross on an input code into 100.00 base and 8.10 tax on 1170, both debits', () => {
    const split = splitVatLine({ amount: '108.10', direction: 1, entry: 'gross' }, code('M81'), '2024-03-01');
    expect(split).toEqual({
      code: 'M81',
      percent: '8.1',
      base: '100.00',
      tax: '8.10',
      signedBase: '100.00',
      signedTax: '8.10',
      postings: [
        { role: 'base', accountNumber: null, amount: '100.00', direction: 1 },
        { role: 'tax', accountNumber: '1170', amount: '8.10', direction: 1 },
      ],
    });
  });

  it('adds the tax to a net amount, and takes the entry mode from the code by default', () => {
    const net = splitVatLine({ amount: '100.00', direction: 1, entry: 'net' }, code('M81'), '2024-03-01');
    expect(net.postings).toEqual([
      { role: 'base', accountNumber: null, amount: '100.00', direction: 1 },
      { role: 'tax', accountNumber: '1170', amount: '8.10', direction: 1 },
    ]);
    expect(splitVatLine({ amount: '108.10', direction: 1 }, code('M81'), '2024-03-01').base).toBe('100.00');
  });

  it('credits the sales tax account for a sale and signs a reversal negative', () => {
    const sale = splitVatLine({ amount: '1081.00', direction: -1 }, code('V81'), '2024-03-01');
    expect(sale.postings).toEqual([
      { role: 'base', accountNumber: null, amount: '1000.00', direction: -1 },
      { role: 'tax', accountNumber: '2200', amount: '81.00', direction: -1 },
    ]);
    expect([sale.signedBase, sale.signedTax]).toEqual(['1000.00', '81.00']);
    const creditNote = splitVatLine({ amount: '1081.00', direction: 1 }, code('V81'), '2024-03-01');
    expect([creditNote.signedBase, creditNote.signedTax]).toEqual(['-1000.00', '-81.00']);
  });

  it('uses the rate of the supply date: a 2023 sale at 7.7 %', () => {
    const split = splitVatLine({ amount: '107.70', direction: -1 }, code('V81'), '2023-12-31');
    expect([split.percent, split.base, split.tax]).toEqual(['7.7', '100.00', '7.70']);
  });

  it('rounds the tax half-up to the cent per line', () => {
    // 10.00 × 8.1 / 108.1 = 0.74930… → 0.75; 0.25 × 8.1 % = 0.02025 → 0.02; 0.50 net × 2.6 % = 0.013 → 0.01
    expect(splitVatLine({ amount: '10.00', direction: 1 }, code('M81'), '2024-01-01')).toMatchObject({ base: '9.25', tax: '0.75' });
    expect(splitVatLine({ amount: '0.25', direction: 1, entry: 'net' }, code('M81'), '2024-01-01')).toMatchObject({ base: '0.25', tax: '0.02' });
    // 18.50 × 8.1 / 100 = 1.4985 → 1.50
    expect(splitVatLine({ amount: '18.50', direction: 1, entry: 'net' }, code('M81'), '2024-01-01').tax).toBe('1.50');
    // exactly half a cent: 0.50 × 3.8 / 100 = 0.019 → 0.02; 12.50 × 2.6 / 100 = 0.325 → 0.33
    expect(splitVatLine({ amount: '12.50', direction: 1, entry: 'net' }, code('M26'), '2024-01-01').tax).toBe('0.33');
  });

  it('keeps base + tax equal to a gross amount exactly, for any amount and rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom('V81', 'V26', 'V38', 'M81', 'I26', 'R38'), (cents, name) => {
        const amount = (cents / 100).toFixed(2);
        if (cents < 20) return; // too small to leave a base
        const split = splitVatLine({ amount, direction: 1, entry: 'gross' }, code(name), '2024-06-30');
        const sum = split.postings.reduce((total, p) => total + Math.round(Number(p.amount) * 100), 0);
        expect(sum).toBe(cents);
      }),
    );
  });

  it('posts acquisition tax due and its deduction, which cancel, and refuses a gross acquisition', () => {
    const split = splitVatLine({ amount: '1000.00', direction: 1 }, code('B81'), '2024-03-01');
    expect(split.postings).toEqual([
      { role: 'base', accountNumber: null, amount: '1000.00', direction: 1 },
      { role: 'tax', accountNumber: '2203', amount: '81.00', direction: -1 },
      { role: 'deduction', accountNumber: '1170', amount: '81.00', direction: 1 },
    ]);
    expect([split.signedBase, split.signedTax]).toEqual(['1000.00', '81.00']);
    expect(() => splitVatLine({ amount: '1081.00', direction: 1, entry: 'gross' }, code('B81'), '2024-03-01')).toThrow(VatSplitError);
  });

  it('keeps a zero-rate line whole as its base', () => {
    const split = splitVatLine({ amount: '500.00', direction: -1 }, code('X0'), '2024-03-01');
    expect(split).toMatchObject({ percent: '0', base: '500.00', tax: '0.00', signedBase: '500.00' });
    expect(split.postings).toHaveLength(1);
  });

  it('leaves the smallest amount whole (no tax below half a cent) and refuses an amount of 0', () => {
    expect(splitVatLine({ amount: '0.01', direction: 1 }, code('M81'), '2024-03-01')).toMatchObject({ base: '0.01', tax: '0.00' });
    expect(splitVatLine({ amount: '0.01', direction: 1 }, code('M81'), '2024-03-01').postings).toHaveLength(1);
    expect(() => splitVatLine({ amount: '0.00', direction: 1 }, code('M81'), '2024-03-01')).toThrow(VatSplitError);
  });
});

describe('normal directions and seeded codes', () => {
  it('reads sales as credits and input as debits', () => {
    expect(vatNormalDirection('sales', 'base')).toBe(-1);
    expect(vatNormalDirection('sales', 'tax')).toBe(-1);
    expect(vatNormalDirection('input', 'tax')).toBe(1);
    expect(vatNormalDirection('acquisition', 'base')).toBe(1);
    expect(vatNormalDirection('acquisition', 'tax')).toBe(-1);
    expect(vatNormalDirection('acquisition', 'deduction')).toBe(1);
    expect(vatNormalDirection('reduction', 'tax')).toBe(1);
  });

  it('names the input code by rate and input VAT account', () => {
    expect(inputVatCode('standard', '1170')).toBe('M81');
    expect(inputVatCode('reduced', '1171')).toBe('I26');
    for (const c of [inputVatCode('accommodation', '1170'), inputVatCode('standard', '1171')]) {
      expect(SWISS_VAT_CODES.some((s) => s.code === c)).toBe(true);
    }
  });
});
