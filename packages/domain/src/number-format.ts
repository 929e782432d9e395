/**
 * The number format amounts are shown in, and what follows from it (decimal separator, CSV
 * dialect). Apart from format.ts so that the web's first page can set it without loading the
 * decimal library that formatting needs (issue 18 §1).
 */
import type { NumberFormat } from './enums.js';

let displayFormat: NumberFormat = 'fr-CH';

/**
 * The number format `formatAmount` shows amounts in (issue 17 §3): the signed-in user's choice in
 * the browser, which has one user at a time. The server never changes it, so what it writes keeps
 * the spec's fr-CH (spec §9); documents take `formatAmountLocale` with their own language.
 */
export function setDisplayNumberFormat(format: NumberFormat): void {
  displayFormat = format;
}
export const displayNumberFormat = (): NumberFormat => displayFormat;

/** The decimal separator an amount input shows in `format`: ',' in fr-CH, '.' in the others. */
export const decimalSeparatorOf = (format: NumberFormat = displayFormat): ',' | '.' => (format === 'fr-CH' ? ',' : '.');

/**
 * How a CSV file is written (decision 034). `null` is Bilan's machine dialect (RFC 4180, `,`
 * between fields, `.` decimals, English headers, no BOM) for the CLI and API clients; a number
 * format is the dialect for the person who chose it: its decimal separator, `;` between fields
 * where that separator is a comma (Excel's list separator in those locales), no grouping (a
 * spreadsheet reads `1234,50` as a number, not `1 234,50`), and a UTF-8 BOM so that Excel reads
 * the umlauts of account and company names.
 */
export interface CsvDialect {
  delimiter: ',' | ';';
  decimal: ',' | '.';
  bom: boolean;
  /** Headers in the user's language (true) or the machine's English column names. */
  localized: boolean;
}

export const csvDialectOf = (format: NumberFormat | null): CsvDialect =>
  format === null
    ? { delimiter: ',', decimal: '.', bom: false, localized: false }
    : { delimiter: decimalSeparatorOf(format) === ',' ? ';' : ',', decimal: decimalSeparatorOf(format), bom: true, localized: true };

/** A decimal string ('-1234.50') as the dialect writes it ('-1234,50'); '' stays ''. */
export const csvAmount = (amount: string, dialect: CsvDialect): string => (dialect.decimal === ',' ? amount.replace('.', ',') : amount);
