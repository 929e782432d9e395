/**
 * CSV in and out for the imports (chart, journal, companies) and the trial balance export. Reading uses
 * csv-parse (RFC 4180 quoting, BOM); writing quotes per RFC 4180 §2.6–2.7.
 */
import { parse } from 'csv-parse/sync';
import { csvDialectOf, type CsvDialect } from '@bilan/domain';
import { AppError } from '../http/errors.js';

/** A 400 for a CSV file that cannot be imported; the body's code is 'import_invalid'. */
const importInvalid = (message: string, fields: Record<string, string>) => new AppError('validation', message, fields, { code: 'import_invalid' });

export interface CsvRecord {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  /** Values by lower-cased header name, trimmed. */
  values: Record<string, string>;
}

/** How many row errors an answer lists; the rest are counted. */
const MAX_LISTED_ERRORS = 20;

/** Collects row errors ("line N, column C: message") and throws them as one 400. */
export class RowErrors {
  private readonly list: { line: number; column: string; message: string }[] = [];

  add(line: number, column: string, message: string): void {
    this.list.push({ line, column, message });
  }

  get count(): number {
    return this.list.length;
  }

  /**
   * The errors as `{ "line N.column": message }` and one readable message, after `lead` (errors of
   * the whole file, such as unknown account numbers, keyed by column).
   */
  toError(lead: { column: string; message: string }[] = []): AppError {
    const listed = this.list.slice(0, MAX_LISTED_ERRORS);
    const fields: Record<string, string> = {};
    for (const error of lead) fields[error.column] = error.message;
    for (const error of listed) fields[`line ${error.line}.${error.column}`] ??= error.message;
    const messages = [...lead.map((e) => e.message), ...listed.map((e) => `line ${e.line}, column ${e.column}: ${e.message}`)];
    const more = this.list.length - listed.length;
    return importInvalid(messages.join('; ') + (more > 0 ? ` (and ${more} more)` : ''), fields);
  }
}

/**
 * Parses CSV text with a header row. Every header must be one of `allowed`, every name in
 * `required` must be present. Empty lines are skipped. Throws a 400 on malformed CSV.
 */
export function parseCsv(text: string, columns: { required: readonly string[]; allowed: readonly string[] }): {
  header: string[];
  records: CsvRecord[];
} {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, info: true }) as unknown as typeof rows;
  } catch (error) {
    const message = `the file is not valid CSV: ${(error as Error).message}`;
    throw importInvalid(message, { file: message });
  }
  const [head, ...body] = rows;
  if (!head) throw importInvalid('the file is empty; expected a header row', { file: 'the file is empty; expected a header row' });
  const header = head.record.map((name) => name.toLowerCase());
  const expected = `expected the columns ${columns.allowed.join(',')}`;
  const unknown = header.filter((name) => !columns.allowed.includes(name));
  if (unknown.length) {
    const message = `unknown column ${unknown.map((u) => `"${u}"`).join(', ')}; ${expected}`;
    throw importInvalid(`line 1: ${message}`, { 'line 1': message });
  }
  const missing = columns.required.filter((name) => !header.includes(name));
  if (missing.length) {
    const message = `missing column ${missing.join(', ')}; ${expected}`;
    throw importInvalid(`line 1: ${message}`, { 'line 1': message });
  }
  if (body.length === 0) throw importInvalid('the file has no rows after its header', { file: 'the file has no rows after its header' });

  const errors = new RowErrors();
  const records = body.map(({ record, info }) => {
    if (record.length !== header.length) {
      errors.add(info.lines, header[Math.min(record.length, header.length - 1)]!, `expected ${header.length} values, found ${record.length}`);
    }
    const values: Record<string, string> = {};
    header.forEach((name, i) => (values[name] = record[i] ?? ''));
    return { line: info.lines, values };
  });
  if (errors.count) throw errors.toError();
  return { header, records };
}

/**
 * One CSV field, quoted when it holds the delimiter, a quote, CR or LF (RFC 4180 §2.6, doubled
 * quotes §2.7; `;` is the delimiter of a comma-decimal person's file, decision 034).
 */
export function csvField(value: string, delimiter: ',' | ';' = ','): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A free-text cell made inert for spreadsheets (OWASP "CSV Injection"): a value starting with
 * = + - @ tab or carriage return would be read as a formula by Excel/LibreOffice, so it gets a
 * leading apostrophe. Only text cells go through here: ids, dates, amounts and status names are
 * ours and keep their exact form.
 */
export const csvSafeText = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/**
 * Rows to CSV text in a dialect (`csvDialectOf`, decision 034; default Bilan's machine dialect).
 * Lines end with LF, as csv-stringify does by default and Unix tools expect.
 */
export function toCsv(rows: readonly (readonly string[])[], dialect: CsvDialect = csvDialectOf(null)): string {
  return (dialect.bom ? '\uFEFF' : '') + rows.map((row) => row.map((value) => csvField(value, dialect.delimiter)).join(dialect.delimiter)).join('\n') + '\n';
}
