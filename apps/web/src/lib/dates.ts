import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { todayInSwitzerland } from '@bilan/domain';

dayjs.extend(customParseFormat);

/**
 * Ledger dates travel as YYYY-MM-DD (docs/api.md) and are shown the Swiss way, DD.MM.YYYY
 * (`formatDate` of @bilan/domain for display).
 */
export const DISPLAY_DATE = 'DD.MM.YYYY';

/**
 * Today's date in Switzerland, YYYY-MM-DD: the date the server gives a document it dates itself,
 * whatever the browser's time zone (a browser in UTC is a day behind from 23:00 UTC), so the checks,
 * a new entry's date and the period presets agree with the server.
 */
export const today = todayInSwitzerland;

const TYPED_FORMATS = ['DD.MM.YYYY', 'D.M.YYYY', 'DD.MM.YY', 'D.M.YY', 'YYYY-MM-DD', 'DD/MM/YYYY', 'D/M/YYYY'];

/**
 * Parses what a person types in a date input: 31.12.2025, 31.12.25, 2025-12-31. Answers
 * YYYY-MM-DD (Mantine's DateStringValue): a Date would reach onChange as a Date and be lost.
 */
export function parseTypedDate(input: string): string | null {
  const text = input.trim();
  // Strict parsing compares the re-formatted date with the input, so padded and unpadded forms are
  // separate formats.
  const date = dayjs(text, TYPED_FORMATS, true);
  return date.isValid() ? date.format('YYYY-MM-DD') : null;
}
