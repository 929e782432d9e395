/**
 * Fiscal years (issue 12 §3): twelve months from the instance's start month, the calendar year by
 * default. A fiscal year is named by the calendar year in which it starts: with a July start,
 * fiscal year 2025 runs 2025-07-01…2026-06-30 and is labelled "2025/26"; with January it is the
 * calendar year 2025, labelled "2025". Pure date arithmetic on YYYY-MM-DD strings.
 */

/** A fiscal year: its number (the year it starts in), label and first and last day. */
export interface FiscalYear {
  year: number;
  /** "2025" for a calendar year, "2025/26" for one that ends in the next calendar year. */
  label: string;
  /** YYYY-MM-DD, first day. */
  dateFrom: string;
  /** YYYY-MM-DD, last day (inclusive). */
  dateTo: string;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Last day of month `month` (1–12) of `year`. */
const lastDayOf = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Fiscal year `year` for a fiscal year starting in `startMonth` (1 = January … 12 = December). */
export function fiscalYear(year: number, startMonth: number): FiscalYear {
  const dateFrom = `${year}-${pad(startMonth)}-01`;
  const endYear = startMonth === 1 ? year : year + 1;
  const endMonth = startMonth === 1 ? 12 : startMonth - 1;
  const label = startMonth === 1 ? String(year) : `${year}/${String(endYear).slice(-2)}`;
  return { year, label, dateFrom, dateTo: `${endYear}-${pad(endMonth)}-${pad(lastDayOf(endYear, endMonth))}` };
}

/** The number of the fiscal year that contains `date` (YYYY-MM-DD). */
export function fiscalYearNumberOf(date: string, startMonth: number): number {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month >= startMonth ? year : year - 1;
}

/** The fiscal year that contains `date`. */
export const fiscalYearOf = (date: string, startMonth: number): FiscalYear => fiscalYear(fiscalYearNumberOf(date, startMonth), startMonth);

/** The day after `date`. */
export function dayAfter(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** English month names for messages ("January"). */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
