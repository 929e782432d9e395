/**
 * Periods of the Financials page: fiscal years and their quarters (YYYY-MM-DD, inclusive). A fiscal
 * year is named by the calendar year it starts in, as the closing and the analytics name it (docs/api.md
 * "Year-end closing and settings"): with a July start, 2025 is 2025-07-01…2026-06-30, "2025/26";
 * with January (the default, `startMonth` 1) it is the calendar year.
 */
import { msg } from '../../lib/i18n';

export interface Period {
  dateFrom: string;
  dateTo: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Last day of month `month` (1–12, may run past 12 into the next years) of `year`, as YYYY-MM-DD. */
function monthEnd(year: number, month: number): string {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((month - 1) % 12) + 1;
  return `${y}-${pad(m)}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`;
}
const monthStart = (year: number, month: number) => `${year + Math.floor((month - 1) / 12)}-${pad(((month - 1) % 12) + 1)}-01`;

/** Fiscal year `year` starting in `startMonth` (1 = January: the calendar year). */
export const yearPeriod = (year: number, startMonth = 1): Period => ({
  dateFrom: monthStart(year, startMonth),
  dateTo: monthEnd(year, startMonth + 11),
});

/** Quarter 1–4 of the fiscal year `year` (three months each from its first month). */
export const quarterPeriod = (year: number, quarter: 1 | 2 | 3 | 4, startMonth = 1): Period => ({
  dateFrom: monthStart(year, startMonth + (quarter - 1) * 3),
  dateTo: monthEnd(year, startMonth + quarter * 3 - 1),
});

/** The number of the fiscal year that contains `date` (YYYY-MM-DD). */
export function fiscalYearOf(date: string, startMonth = 1): number {
  const year = Number(date.slice(0, 4));
  return Number(date.slice(5, 7)) >= startMonth ? year : year - 1;
}

/** "2025", or "2025/26" for a fiscal year that ends in the next calendar year. */
export const yearLabel = (year: number, startMonth = 1): string => (startMonth === 1 ? String(year) : `${year}/${String(year + 1).slice(-2)}`);

export interface PeriodPreset {
  /** 'This year' and 'Last year' are English texts to show through t(); Q1 2025 is shown as is. */
  label: string;
  period: Period;
}

/**
 * The presets: this fiscal year and last (by `today`), then the four quarters of the fiscal year
 * being looked at (the one that contains `current`'s end), so Q1–Q4 of last year are one click after
 * "Last year".
 */
export function periodPresets(today: string, current: Period, startMonth = 1): PeriodPreset[] {
  const thisYear = fiscalYearOf(today, startMonth);
  const shownYear = fiscalYearOf(current.dateTo, startMonth);
  const shownLabel = yearLabel(shownYear, startMonth);
  return [
    { label: msg('This year'), period: yearPeriod(thisYear, startMonth) },
    { label: msg('Last year'), period: yearPeriod(thisYear - 1, startMonth) },
    ...([1, 2, 3, 4] as const).map((quarter) => ({ label: `Q${quarter} ${shownLabel}`, period: quarterPeriod(shownYear, quarter, startMonth) })),
  ];
}

/** Whether two periods are the same days. */
export const samePeriod = (a: Period, b: Period) => a.dateFrom === b.dateFrom && a.dateTo === b.dateTo;
