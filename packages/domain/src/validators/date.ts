/** Calendar dates as the API writes them, 'YYYY-MM-DD' (spec §5 date rule, §9 year range). */
import { DATE_YEAR_MAX, DATE_YEAR_MIN } from '../constants.js';

/** Gregorian leap year: every 4th year, except centuries not divisible by 400. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Days in `month` (1–12) of `year`, February following the leap-year rule. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 0;
}

/** True for an existing calendar date written 'YYYY-MM-DD', whatever the year. */
export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Spec §5 date rule: 'YYYY-MM-DD', year 1900–2300 (§9), a real month and day, leap years included. */
export function isValidIsoDate(value: unknown): boolean {
  if (typeof value !== 'string' || !isCalendarDate(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= DATE_YEAR_MIN && year <= DATE_YEAR_MAX;
}
