import { describe, expect, it } from 'vitest';
import { fileNameOf } from './statement-api';
import { fiscalYearOf, periodPresets, quarterPeriod, samePeriod, yearLabel, yearPeriod } from './statement-periods';

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

  it('follows a July–June fiscal year: this year and last by today, fiscal quarters of the year looked at', () => {
    expect(yearPeriod(2025, 7)).toEqual({ dateFrom: '2025-07-01', dateTo: '2026-06-30' });
    expect(yearPeriod(2023, 3)).toEqual({ dateFrom: '2023-03-01', dateTo: '2024-02-29' });
    expect(fiscalYearOf('2026-03-15', 7)).toBe(2025);
    expect(fiscalYearOf('2026-07-01', 7)).toBe(2026);
    const presets = periodPresets('2026-03-15', yearPeriod(2024, 7), 7);
    expect(presets.map((p) => p.label)).toEqual(['This year', 'Last year', 'Q1 2024/25', 'Q2 2024/25', 'Q3 2024/25', 'Q4 2024/25']);
    expect(presets[0]!.period).toEqual({ dateFrom: '2025-07-01', dateTo: '2026-06-30' });
    expect(presets[1]!.period).toEqual({ dateFrom: '2024-07-01', dateTo: '2025-06-30' });
    expect(presets.slice(2).map((p) => p.period)).toEqual([
      { dateFrom: '2024-07-01', dateTo: '2024-09-30' },
      { dateFrom: '2024-10-01', dateTo: '2024-12-31' },
      { dateFrom: '2025-01-01', dateTo: '2025-03-31' },
      { dateFrom: '2025-04-01', dateTo: '2025-06-30' },
    ]);
    expect(yearLabel(2025, 7)).toBe('2025/26');
    expect(yearLabel(2025)).toBe('2025');
  });

  it('reads the file name of Content-Disposition', () => {
    expect(fileNameOf('attachment; filename="Bilanz-2025-12-31.pdf"', 'x.pdf')).toBe('Bilanz-2025-12-31.pdf');
    expect(fileNameOf(null, 'statement.csv')).toBe('statement.csv');
  });
});
