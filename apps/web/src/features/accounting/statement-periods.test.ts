import { describe, expect, it } from 'vitest';
import { fileNameOf } from './statement-api';
import { periodPresets, quarterPeriod, samePeriod, yearPeriod } from './statement-periods';

describe('statement periods', () => {
  it('gives years and quarters as inclusive YYYY-MM-DD ranges', () => {
    expect(yearPeriod(2025)).toEqual({ dateFrom: '2025-01-01', dateTo: '2025-12-31' });
    expect([1, 2, 3, 4].map((q) => quarterPeriod(2024, q as 1 | 2 | 3 | 4))).toEqual([
      { dateFrom: '2024-01-01', dateTo: '2024-03-31' },
      { dateFrom: '2024-04-01', dateTo: '2024-06-30' },
      { dateFrom: '2024-07-01', dateTo: '2024-09-30' },
      { dateFrom: '2024-10-01', dateTo: '2024-12-31' },
    ]);
  });

  it('offers this year, last year and the quarters of the year looked at', () => {
    const presets = periodPresets('2026-03-15', yearPeriod(2025));
    expect(presets.map((p) => p.label)).toEqual(['This year', 'Last year', 'Q1 2025', 'Q2 2025', 'Q3 2025', 'Q4 2025']);
    expect(presets[0]!.period).toEqual(yearPeriod(2026));
    expect(presets[1]!.period).toEqual(yearPeriod(2025));
    expect(samePeriod(presets[5]!.period, quarterPeriod(2025, 4))).toBe(true);
    expect(samePeriod(presets[0]!.period, presets[1]!.period)).toBe(false);
  });

  it('reads the file name of Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="Bilanz-2025-12-31.pdf"', 'x.pdf')).toBe('Bilanz-2025-12-31.pdf');
    expect(fileNameOf(null, 'statement.csv')).toBe('statement.csv');
  });
});
