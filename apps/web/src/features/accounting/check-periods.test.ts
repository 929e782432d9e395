import { describe, expect, it } from 'vitest';
import { periodPresets, presetOf } from './check-periods';

describe('periodPresets', () => {
  it('gives this year to today, last year and the four quarters of this year', () => {
    const presets = periodPresets('2025-08-14');
    expect(presets.map((p) => [p.key, p.dateFrom, p.dateTo])).toEqual([
      ['this-year', '2025-01-01', '2025-08-14'],
      ['last-year', '2024-01-01', '2024-12-31'],
      ['q1', '2025-01-01', '2025-03-31'],
      ['q2', '2025-04-01', '2025-06-30'],
      ['q3', '2025-07-01', '2025-09-30'],
      ['q4', '2025-10-01', '2025-12-31'],
    ]);
    expect(presets[1]!.label).toBe('Last year (2024)');
  });

  it('recognises a preset by its dates only', () => {
    const presets = periodPresets('2025-08-14');
    expect(presetOf(presets, { dateFrom: '2025-04-01', dateTo: '2025-06-30' })?.key).toBe('q2');
    expect(presetOf(presets, { dateFrom: '2025-04-01', dateTo: '2025-06-29' })).toBeUndefined();
  });
});
