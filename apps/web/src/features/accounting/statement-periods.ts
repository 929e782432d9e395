/** Periods of the Financials page: calendar years and quarters (YYYY-MM-DD, inclusive). */

export interface Period {
  dateFrom: string;
  dateTo: string;
}

const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'] as const;
const QUARTER_STARTS = ['01-01', '04-01', '07-01', '10-01'] as const;

export const yearPeriod = (year: number): Period => ({ dateFrom: `${year}-01-01`, dateTo: `${year}-12-31` });

/** Quarter 1–4 of `year`. */
export const quarterPeriod = (year: number, quarter: 1 | 2 | 3 | 4): Period => ({
  dateFrom: `${year}-${QUARTER_STARTS[quarter - 1]}`,
  dateTo: `${year}-${QUARTER_ENDS[quarter - 1]}`,
});

export interface PeriodPreset {
  label: string;
  period: Period;
}

/**
 * The presets: this year and last year (by `today`), then the four quarters of the year being
 * looked at (the year of `current`'s end), so Q1–Q4 of last year are one click after "Last year".
 */
export function periodPresets(today: string, current: Period): PeriodPreset[] {
  const thisYear = Number(today.slice(0, 4));
  const shownYear = Number(current.dateTo.slice(0, 4));
  return [
    { label: 'This year', period: yearPeriod(thisYear) },
    { label: 'Last year', period: yearPeriod(thisYear - 1) },
    ...([1, 2, 3, 4] as const).map((quarter) => ({ label: `Q${quarter} ${shownYear}`, period: quarterPeriod(shownYear, quarter) })),
  ];
}

/** Whether two periods are the same days. */
export const samePeriod = (a: Period, b: Period) => a.dateFrom === b.dateFrom && a.dateTo === b.dateTo;
