import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Money, isAmountString, roundTo5Rappen, sumMoney, toFixedAmount, toMoney } from './money.js';

/** Cents as a BigInt to the decimal string the API sends ("-12.34"). */
const centsToString = (cents: bigint): string => {
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};
const cents = fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n });

describe('isAmountString', () => {
  it('accepts plain decimals within the decimals limit', () => {
    expect(isAmountString('1994.75')).toBe(true);
    expect(isAmountString('-0.5')).toBe(true);
    expect(isAmountString('1.234')).toBe(false);
    expect(isAmountString('1.234', 3)).toBe(true);
    expect(isAmountString(1.5)).toBe(false);
    expect(isAmountString('1e2')).toBe(false);
  });
});

describe('toMoney', () => {
  it('refuses floats and text that is not an amount', () => {
    expect(() => toMoney(0.1)).toThrow(RangeError);
    expect(() => toMoney('1,5')).toThrow(RangeError);
    expect(toMoney(12).toString()).toBe('12');
  });
});

describe('sumMoney and toFixedAmount are exact', () => {
  it('0.1 + 0.2 is 0.30', () => {
    expect(toFixedAmount(sumMoney(['0.1', '0.2']))).toBe('0.30');
  });

  it('the sum of n cents strings equals BigInt arithmetic on the cents (property)', () => {
    fc.assert(
      fc.property(fc.array(cents, { maxLength: 50 }), (values) => {
        const expected = values.reduce((total, value) => total + value, 0n);
        expect(toFixedAmount(sumMoney(values.map(centsToString)))).toBe(centsToString(expected));
      }),
    );
  });

  it('toFixedAmount keeps a cents string unchanged (property)', () => {
    fc.assert(
      fc.property(cents, (value) => {
        expect(toFixedAmount(centsToString(value))).toBe(centsToString(value));
      }),
    );
  });

  it('toFixedAmount rounds half-up and drops a negative zero', () => {
    expect(toFixedAmount('2.345')).toBe('2.35');
    expect(toFixedAmount('-2.345')).toBe('-2.35');
    expect(toFixedAmount('-0.001')).toBe('0.00');
    expect(toFixedAmount(new Money('1.5'), 0)).toBe('2');
  });
});

describe('roundTo5Rappen', () => {
  it('rounds to 0.05', () => {
    expect(roundTo5Rappen('1.02').toFixed(2)).toBe('1.00');
    expect(roundTo5Rappen('1.025').toFixed(2)).toBe('1.05');
    expect(roundTo5Rappen('1.074').toFixed(2)).toBe('1.05');
  });
});
