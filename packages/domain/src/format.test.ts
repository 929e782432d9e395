import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Money, toFixedAmount } from './money.js';
import { formatAmount, formatDate, parseAmountInput, truncateName, vatPercentToRate, vatRateFromAmounts, vatRateToPercent } from './format.js';
import { formatReferenceNumber } from './reference-number.js';
import { decimalSeparatorOf, setDisplayNumberFormat } from './number-format.js';

const NNBSP = '\u202f'; // fr-CH group separator

describe('formatAmount (spec §5 "Amount display", §9 "2 decimals, locale fr-CH")', () => {
  it('formats with fr-CH separators and exactly 2 decimals by default', () => {
    expect(formatAmount('1234.5')).toBe(`1${NNBSP}234,50`);
    expect(formatAmount('1234567.891')).toBe(`1${NNBSP}234${NNBSP}567,89`);
    expect(formatAmount('0')).toBe('0,00');
    expect(formatAmount('999')).toBe('999,00');
    expect(formatAmount('12')).toBe('12,00');
  });

  it('shows negatives in brackets without the minus', () => {
    expect(formatAmount('-1234.5')).toBe(`(1${NNBSP}234,50)`);
    expect(formatAmount('-0.01')).toBe('(0,01)');
  });

  it('rounds half-up and never shows a negative zero', () => {
    expect(formatAmount('0.005')).toBe('0,01');
    expect(formatAmount('-0.005')).toBe('(0,01)');
    expect(formatAmount('-0.004')).toBe('0,00');
    expect(formatAmount('999.995')).toBe(`1${NNBSP}000,00`);
  });

  it('keeps every digit of large amounts (no float on the way)', () => {
    expect(formatAmount('123456789012345678.99')).toBe(
      `123${NNBSP}456${NNBSP}789${NNBSP}012${NNBSP}345${NNBSP}678,99`,
    );
    expect(formatAmount('9007199254740993.01')).toBe(`9${NNBSP}007${NNBSP}199${NNBSP}254${NNBSP}740${NNBSP}993,01`);
  });

  it('honours the decimals argument', () => {
    expect(formatAmount('1.23456', 4)).toBe('1,2346');
    expect(formatAmount('1234.5', 0)).toBe(`1${NNBSP}235`);
    expect(formatAmount('-2.5', 0)).toBe('(3)');
    expect(formatAmount('0.12345678', 8)).toBe('0,12345678');
  });

  it('accepts a Decimal', () => {
    expect(formatAmount(new Money('-1994.75'))).toBe(`(1${NNBSP}994,75)`);
    expect(formatAmount(new Money(Number.NaN))).toBe('-');
    expect(formatAmount(new Money(Number.POSITIVE_INFINITY))).toBe('-');
  });

  it.each([null, undefined, '', 'abc', ' 12', '1,5', '1e3', 'NaN', 'Infinity', '--1'])('shows %s as "-"', (value) => {
    expect(formatAmount(value)).toBe('-');
  });

  const decimalString = fc
    .tuple(fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }), fc.integer({ min: 0, max: 12 }))
    .map(([units, scale]) => {
      const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
      const integer = digits.slice(0, digits.length - scale).replace(/^0+(?=\d)/, '');
      if (integer.length > 18) return null;
      const text = scale ? `${integer}.${digits.slice(digits.length - scale)}` : integer;
      return units < 0n ? `-${text}` : text;
    })
    .filter((text): text is string => text !== null);

  it('never shows a minus, brackets iff the rounded amount is negative, digits exact (property)', () => {
    fc.assert(
      fc.property(decimalString, fc.integer({ min: 0, max: 6 }), (value, decimals) => {
        const shown = formatAmount(value, decimals);
        const fixed = toFixedAmount(value, decimals);
        expect(shown).not.toContain('-');
        const bracketed = shown.startsWith('(') && shown.endsWith(')');
        expect(bracketed).toBe(fixed.startsWith('-'));
        const unformatted = (bracketed ? `-${shown.slice(1, -1)}` : shown).replaceAll(NNBSP, '').replace(',', '.');
        expect(unformatted).toBe(fixed);
      }),
    );
  });
});

describe('formatReferenceNumber (spec §5, §9)', () => {
  it('pads the id to at least 6 characters after the prefix', () => {
    expect(formatReferenceNumber(42)).toBe('BILAN000042');
    expect(formatReferenceNumber(0)).toBe('BILAN000000');
    expect(formatReferenceNumber(123456)).toBe('BILAN123456');
    expect(formatReferenceNumber(1234567)).toBe('BILAN1234567');
    expect(formatReferenceNumber('42')).toBe('BILAN000042');
  });

  it('refuses what is not a non-negative integer', () => {
    for (const bad of [-1, 1.5, Number.NaN, 2 ** 60, '', '-1', '4a', ' 42']) {
      expect(() => formatReferenceNumber(bad)).toThrow(RangeError);
    }
  });
});

describe('truncateName (spec §5, §9 "cut 23 characters")', () => {
  it('keeps names of up to 23 characters', () => {
    expect(truncateName('Bank')).toBe('Bank');
    expect(truncateName('a'.repeat(23))).toBe('a'.repeat(23));
    expect(truncateName('')).toBe('');
  });

  it('cuts longer names to their first 23 characters plus "…"', () => {
    expect(truncateName('a'.repeat(24))).toBe(`${'a'.repeat(23)}…`);
    expect(truncateName('Debitoren Inland Kunden Schweiz')).toBe('Debitoren Inland Kunden…');
  });

  it('counts code points, so an emoji is never split', () => {
    expect(truncateName(`${'😀'.repeat(24)}`)).toBe(`${'😀'.repeat(23)}…`);
    expect(truncateName(`${'😀'.repeat(23)}`)).toBe('😀'.repeat(23));
  });

  it('takes another limit', () => {
    expect(truncateName('abcdef', 3)).toBe('abc…');
  });
});

describe('vatRateFromAmounts (spec §5 "VAT rate")', () => {
  it('computes vat / (total − vat) from a gross total, rounded to 3 decimals', () => {
    expect(vatRateFromAmounts('108.10', '8.10')).toBe('0.081');
    expect(vatRateFromAmounts('102.60', '2.60')).toBe('0.026');
    expect(vatRateFromAmounts('103.80', '3.80')).toBe('0.038');
    expect(vatRateFromAmounts('100', '0')).toBe('0.000');
    expect(vatRateFromAmounts('107.70', '7.70')).toBe('0.077');
    expect(vatRateFromAmounts(new Money('-108.10'), new Money('-8.10'))).toBe('0.081');
  });

  it('rounds half-up', () => {
    expect(vatRateFromAmounts('3', '1')).toBe('0.500');
    expect(vatRateFromAmounts('10.00', '0.95')).toBe('0.105'); // 0.95 / 9.05 = 0.10497…
    expect(vatRateFromAmounts('2001', '1')).toBe('0.001'); // 1 / 2000 = 0.0005
  });

  it('is null when vat is empty or the net amount is 0', () => {
    expect(vatRateFromAmounts('100', null)).toBeNull();
    expect(vatRateFromAmounts('100', undefined)).toBeNull();
    expect(vatRateFromAmounts('100', '')).toBeNull();
    expect(vatRateFromAmounts('100', '  ')).toBeNull();
    expect(vatRateFromAmounts('8.10', '8.10')).toBeNull();
  });

  it('refuses non-amounts', () => {
    expect(() => vatRateFromAmounts('abc', '1')).toThrow(RangeError);
    expect(() => vatRateFromAmounts('100', 'x')).toThrow(RangeError);
  });
});

describe('VAT percent and rate (spec §2.7: stored as a fraction, shown ×100)', () => {
  it.each([
    ['8.1', '0.081'], ['2.6', '0.026'], ['3.8', '0.038'], ['7.7', '0.077'], ['0', '0'], ['99', '0.99'],
    ['1', '0.01'], ['8.125', '0.08125'],
  ])('%s %% ↔ %s', (percent, rate) => {
    expect(vatPercentToRate(percent)).toBe(rate);
    expect(vatRateToPercent(rate)).toBe(percent);
  });

  it('normalises trailing zeros', () => {
    expect(vatRateToPercent('0.0810')).toBe('8.1');
    expect(vatPercentToRate('8.10')).toBe('0.081');
  });

  it('refuses non-numbers', () => {
    expect(() => vatPercentToRate('8,1')).toThrow(RangeError);
    expect(() => vatRateToPercent('')).toThrow(RangeError);
  });

  it('round-trips exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999 }), (thousandths) => {
        const percent = new Money(thousandths).dividedBy(1000).toFixed();
        expect(vatRateToPercent(vatPercentToRate(percent))).toBe(percent);
      }),
    );
  });
});

describe('formatDate', () => {
  it('rearranges a ledger date as written', () => {
    expect(formatDate('2024-02-29')).toBe('29.02.2024');
    expect(formatDate('1999-12-31')).toBe('31.12.1999');
  });

  it('shows a timestamp as the date in Switzerland', () => {
    expect(formatDate('2024-03-01T23:30:00Z')).toBe('02.03.2024'); // CET, UTC+1
    expect(formatDate('2024-07-01T22:30:00.000Z')).toBe('02.07.2024'); // CEST, UTC+2
    expect(formatDate('2024-07-01T21:59:59Z')).toBe('01.07.2024');
    expect(formatDate('2024-07-01T10:00:00+02:00')).toBe('01.07.2024');
  });

  it.each([null, undefined, '', '2023-02-29', '29.02.2024', '2024-02-29 10:00', 'garbage', '2024-02-30T10:00:00Z'])(
    'shows %s as "-"',
    (value) => {
      expect(formatDate(value)).toBe('-');
    },
  );
});

describe('number formats per user (issue 17 §3)', () => {
  afterEach(() => setDisplayNumberFormat('fr-CH'));

  it.each([
    ['fr-CH', `1${NNBSP}234,50`, `(1${NNBSP}234${NNBSP}567,89)`, ','],
    ['de-CH', "1'234.50", "(1'234'567.89)", '.'],
    ['it-CH', "1'234.50", "(1'234'567.89)", '.'],
    ['en-CH', "1'234.50", "(1'234'567.89)", '.'],
  ] as const)('%s shows %s and %s, inputs with %s', (format, positive, negative, separator) => {
    setDisplayNumberFormat(format);
    // ICU writes the Swiss apostrophe as ' or ’ depending on its version; both are the group separator.
    expect(formatAmount('1234.5').replace('’', "'")).toBe(positive);
    expect(formatAmount('-1234567.891').replaceAll('’', "'")).toBe(negative);
    expect(formatAmount('999')).toBe(`999${separator}00`);
    expect(decimalSeparatorOf()).toBe(separator);
  });

  it.each([
    ['1234.50', '1234.50'], ['1 234,50', '1234.50'], [`1${NNBSP}234,50`, '1234.50'], ["1'234.50", '1234.50'], ['1’234.50', '1234.50'],
    ['(1 234,50)', '-1234.50'], ['-1234,5', '-1234.5'], ['−12', '-12'], [' 7 ', '7'], ['1,5', '1.5'], ['.5', '0.5'], ['5.', '5'], ['-0', '0'],
  ])('parses %s as %s', (text, value) => {
    expect(parseAmountInput(text)).toBe(value);
  });

  it.each(['', 'abc', '1.2.3', '1,2,3', '(-5)', '--1', '1e3', '12a', '(', '.'])('refuses %s', (text) => {
    expect(parseAmountInput(text)).toBeNull();
  });

  it('gives back the amount it showed, in every format (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('fr-CH', 'de-CH', 'it-CH', 'en-CH' as const),
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        (format, cents) => {
          setDisplayNumberFormat(format);
          const value = toFixedAmount(new Money(cents.toString()).dividedBy(100));
          const back = parseAmountInput(formatAmount(value));
          expect(back === null ? null : toFixedAmount(back)).toBe(toFixedAmount(value));
        },
      ),
    );
  });
});
