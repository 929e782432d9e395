/** The observed year (spec §3 local storage, §5 "Dashboard year"), shared by the dashboard and the analytics. */
import { DATE_YEAR_MAX, DATE_YEAR_MIN } from '@bilan/domain';
import { readText, storageKeys, writeText } from './storage';

export const isYear = (text: string): boolean => {
  if (!/^\d{4}$/.test(text)) return false;
  const year = Number(text);
  return year >= DATE_YEAR_MIN && year <= DATE_YEAR_MAX;
};

/** The remembered year is used only if numeric, otherwise the current year (spec §5). */
export function initialYear(): string {
  const stored = readText(storageKeys.year);
  return stored && /^\d+$/.test(stored) && isYear(stored) ? stored : String(new Date().getFullYear());
}

export const rememberYear = (year: string): void => writeText(storageKeys.year, year);
