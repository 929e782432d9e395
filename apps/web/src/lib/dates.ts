import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

/**
 * Ledger dates travel as YYYY-MM-DD (docs/api.md) and are shown the Swiss way, DD.MM.YYYY
 * (`formatDate` of @bilan/domain for display).
 */
export const DISPLAY_DATE = 'DD.MM.YYYY';

const swissIsoDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich', year: 'numeric', month: '2-digit', day: '2-digit' });

/**
 * Today's date in Switzerland, YYYY-MM-DD: the date the server gives a document it dates itself
 * (`todayInSwitzerland`), whatever the browser's time zone. From 23:00 UTC (22:00 in summer) a
 * browser in UTC is still on the day before, and the checks, a new entry's date and the period
 * presets would differ from the server's by a day.
 */
export const today = (): string => swissIsoDate.format(new Date());

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
