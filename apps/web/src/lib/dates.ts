import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

/**
 * Ledger dates travel as YYYY-MM-DD (docs/api.md) and are shown the Swiss way, DD.MM.YYYY
 * (`formatDate` of @bilan/domain for display).
 */
export const DISPLAY_DATE = 'DD.MM.YYYY';

export const today = (): string => dayjs().format('YYYY-MM-DD');

/** Parses what a person types in a date input: 31.12.2025, 31.12.25, 2025-12-31. */
export function parseTypedDate(input: string): Date | null {
  const text = input.trim();
  for (const format of ['D.M.YYYY', 'D.M.YY', 'YYYY-MM-DD', 'D/M/YYYY']) {
    const date = dayjs(text, format, true);
    if (date.isValid()) return date.toDate();
  }
  return null;
}
