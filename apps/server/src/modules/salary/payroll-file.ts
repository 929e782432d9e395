/**
 * Reading a payroll journal file (CSV or XLSX) into rows keyed by column (domain SALARY_COLUMNS):
 * Swiss payroll exports write ';' or ',' or tabs, German or French headers, amounts as 1'234.50.
 * Errors are the imports' 400s (lib/csv.ts RowErrors style): line and column named.
 */
import { parse } from 'csv-parse/sync';
// Types only at start: exceljs (185 ms to load) comes with the first workbook (issue 18 §3).
import type ExcelJS from 'exceljs';
import { salaryColumnOf, SALARY_COLUMNS } from '@bilan/domain';
import type { CsvRecord } from '../../lib/csv.js';
import { salaryError } from './salary.errors.js';

/** A 400 of the whole file, or of its header ('line 1'): the field's message without the line. */
const invalid = (message: string, field = 'file') => salaryError('import_invalid', field === 'file' ? message : `${field}: ${message}`, { [field]: message });

/** Header row → column names; unknown headers are refused naming them and the columns known. */
function columnsOf(header: readonly string[]): string[] {
  const columns = header.map((name) => salaryColumnOf(String(name)));
  const unknown = header.filter((_, i) => columns[i] === undefined);
  if (unknown.length) {
    const message = `unknown column ${unknown.map((u) => `"${u}"`).join(', ')}; expected columns such as ${Object.keys(SALARY_COLUMNS).join(', ')}`;
    throw invalid(message, 'line 1');
  }
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column!)) throw invalid(`two columns mean ${column}`, 'line 1');
    seen.add(column!);
  }
  const missing = ['period', 'employee', 'amount'].filter((name) => !seen.has(name));
  if (!seen.has('wagetype') && !seen.has('account') && !(seen.has('debit') || seen.has('credit'))) missing.push('wagetype (or account, or debit and credit)');
  if (missing.length) throw invalid(`missing column ${missing.join(', ')}`, 'line 1');
  return columns as string[];
}

/** CSV text: delimiter ',', ';' or tab (csv-parse tries each), BOM, quoting per RFC 4180. */
export function readPayrollCsv(text: string): CsvRecord[] {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
    const delimiter = firstLine.includes(';') ? ';' : firstLine.includes('\t') ? '\t' : ',';
    rows = parse(text, { bom: true, delimiter, skip_empty_lines: true, trim: true, relax_column_count: true, info: true }) as unknown as typeof rows;
  } catch (error) {
    throw invalid(`the file is not valid CSV: ${(error as Error).message}`);
  }
  const [head, ...body] = rows;
  if (!head) throw invalid('the file is empty; expected a header row');
  const columns = columnsOf(head.record);
  if (body.length === 0) throw invalid('the file has no rows after its header');
  return body.map(({ record, info }) => {
    const values: Record<string, string> = {};
    columns.forEach((name, i) => (values[name] = record[i] ?? ''));
    return { line: info.lines, values };
  });
}

/** A cell as text: dates as YYYY-MM-DD, numbers as written, formulas by their result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    return '';
  }
  return String(value).trim();
}

/** The first worksheet of an XLSX workbook, its first row the header. */
export async function readPayrollXlsx(content: Buffer): Promise<CsvRecord[]> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch (error) {
    throw invalid(`the file is not an XLSX workbook: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet || sheet.rowCount === 0) throw invalid('the workbook has no worksheet with rows');
  const header = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(cellText);
  while (header.length && header[header.length - 1] === '') header.pop();
  const columns = columnsOf(header);
  const records: CsvRecord[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    if (line === 1) return;
    const values: Record<string, string> = {};
    columns.forEach((name, i) => (values[name] = cellText(row.getCell(i + 1).value)));
    if (Object.values(values).every((v) => v === '')) return;
    records.push({ line, values });
  });
  if (records.length === 0) throw invalid('the file has no rows after its header');
  return records;
}

/** Whether `bytes` start like a ZIP archive (XLSX is one). */
export const isZip = (bytes: Buffer): boolean => bytes.length > 3 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
