import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { daysInMonth, isCalendarDate, isLeapYear, isValidIsoDate } from './date.js';

describe('isValidIsoDate (spec §5 date, §9 years 1900–2300)', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['1899-12-31', false],
    ['1900-01-01', true],
    ['2300-12-31', true],
    ['2301-01-01', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-04-31', false],
    ['2024-04-30', true],
    ['2024-01-00', false],
    ['2024-01-32', false],
    ['2000-02-29', true],
    ['1900-02-29', false],
    ['2100-02-29', false],
    ['2024-2-29', false],
    ['24-02-29', false],
    ['2024/02/29', false],
    ['2024-02-29T00:00:00Z', false],
    [' 2024-02-29', false],
    ['', false],
  ])('%s → %s', (value, expected) => {
    expect(isValidIsoDate(value)).toBe(expected);
  });

  it('rejects non-strings', () => {
    expect(isValidIsoDate(undefined)).toBe(false);
    expect(isValidIsoDate(20240229)).toBe(false);
    expect(isValidIsoDate(new Date())).toBe(false);
  });

  it('agrees with the UTC calendar for every day of 1900–2300 (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2300 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }),
        (year, month, day) => {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const date = new Date(Date.UTC(year, month - 1, day));
          expect(isValidIsoDate(text)).toBe(date.getUTCMonth() === month - 1);
        },
      ),
    );
  });
});

describe('calendar helpers', () => {
  it('isLeapYear follows the Gregorian rule', () => {
    expect([1900, 2000, 2023, 2024, 2100, 2400].map(isLeapYear)).toEqual([false, true, false, true, false, true]);
  });

  it('daysInMonth', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(2023, 12)).toBe(31);
    expect(daysInMonth(2023, 13)).toBe(0);
  });

  it('isCalendarDate has no year range', () => {
    expect(isCalendarDate('1850-06-15')).toBe(true);
    expect(isCalendarDate('1850-02-29')).toBe(false);
  });
});
