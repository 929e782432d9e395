import Papa from 'papaparse';
import type { CsvDialect } from '@bilan/domain';
import { translate } from './i18n';

/** A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP "CSV injection"). */
export const safeCsvText = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** A column: its machine name (the CLI's header) and its English label, translated for people. */
export interface CsvColumn {
  name: string;
  label: string;
}

/**
 * The CSV text of a header and rows in a dialect (decision 034): RFC 4180 quoting, `\n` line
 * ends, the dialect's delimiter, a BOM for people's files. Cells are already written (amounts
 * through `csvAmount`, texts through `safeCsvText`).
 */
export function writeCsv(columns: readonly CsvColumn[], rows: readonly (readonly string[])[], dialect: CsvDialect): string {
  const header = columns.map((column) => (dialect.localized ? translate(column.label) : column.name));
  return (dialect.bom ? '\uFEFF' : '') + Papa.unparse([header, ...rows], { delimiter: dialect.delimiter, newline: '\n' }) + '\n';
}
