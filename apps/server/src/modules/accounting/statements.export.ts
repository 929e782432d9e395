/**
 * The financial statements as files (issue 12 §4 "Exports"): one list of rows per statement
 * (`statementTables`), written as PDF (statements.pdf.ts), XLSX (exceljs) or CSV.
 *
 * CSV follows Bilan's machine dialect by default (the trial balance export of the CLI, the chart
 * and journal imports): RFC 4180, `,` between fields, `.` as the decimal point, plain numbers with
 * a leading '-', UTF-8 without BOM; texts a spreadsheet would run as a formula get a leading
 * apostrophe. With a number format it is a person's file (decision 034): that format's decimal
 * separator, `;` between fields where it is a comma, headers in the statement's language, a BOM.
 * The XLSX's cells are numbers whatever the computer's locale (decision 017).
 */
import { csvAmount, csvDialectOf, formatDate, type CsvDialect } from '@bilan/domain';
import { csvSafeText, toCsv } from '../../lib/csv.js';
import type { BalanceSheet, IncomeStatement, StatementAccount, StatementAmount } from './statements.service.js';
import { CSV_HEADERS, FILE_NAMES, STATEMENT_TEXTS, type StatementLang } from './statement-structure.js';

/** The company the statements are of, for the header (the own company, else the instance's name). */
export interface Letterhead {
  name: string;
  /** Postal lines, e.g. ['Bahnhofstrasse 1', '8001 Zürich']. */
  addressLines: string[];
  uid: string | null;
}

export type ExportRowKind = 'side' | 'section' | 'line' | 'account' | 'total' | 'grandTotal';

export interface ExportRow {
  kind: ExportRowKind;
  /** Section key (and line key for lines and accounts), for the CSV's machine columns. */
  section: string;
  line: string;
  /** Account number for account rows. */
  number: string | null;
  label: string;
  /** One amount per column (current, then prior period); null on headings. */
  amounts: (string | null)[];
}

export interface ExportTable {
  statement: 'balance-sheet' | 'income';
  /** e.g. 'Bilanz per 31.12.2025', 'Erfolgsrechnung 01.01.2025 – 31.12.2025'. */
  title: string;
  currency: string;
  /** Heading of each amount column: the date or the period. */
  columns: string[];
  rows: ExportRow[];
}

const amounts = (item: StatementAmount) => (item.compareAmount === null ? [item.amount] : [item.amount, item.compareAmount]);
const noAmounts = (count: number) => Array.from({ length: count }, () => null);
const period = (from: string, to: string) => `${formatDate(from)} – ${formatDate(to)}`;

function accountRows(section: string, line: string, accounts: StatementAccount[]): ExportRow[] {
  return accounts.map((account) => ({ kind: 'account', section, line, number: account.number, label: account.name, amounts: amounts(account) }));
}

/** The balance sheet as rows: side, section, lines (with accounts), section total, side total. */
export function balanceSheetTable(sheet: BalanceSheet, withAccounts: boolean): ExportTable {
  const columns = sheet.compareDate ? [formatDate(sheet.date), formatDate(sheet.compareDate)] : [formatDate(sheet.date)];
  const rows: ExportRow[] = [];
  for (const side of sheet.sides) {
    rows.push({ kind: 'side', section: side.key, line: '', number: null, label: side.label, amounts: noAmounts(columns.length) });
    for (const section of side.sections) {
      rows.push({ kind: 'section', section: section.key, line: '', number: null, label: section.label ?? '', amounts: noAmounts(columns.length) });
      for (const line of section.lines) {
        rows.push({ kind: 'line', section: section.key, line: line.key, number: null, label: line.label, amounts: amounts(line) });
        if (withAccounts) rows.push(...accountRows(section.key, line.key, line.accounts));
      }
      rows.push({ kind: 'total', section: section.key, line: '', number: null, label: section.total.label, amounts: amounts(section.total) });
    }
    rows.push({ kind: 'grandTotal', section: side.key, line: '', number: null, label: side.total.label, amounts: amounts(side.total) });
  }
  return { statement: 'balance-sheet', title: `${sheet.title} ${STATEMENT_TEXTS.asOf[sheet.lang]} ${formatDate(sheet.date)}`, currency: sheet.currency, columns, rows };
}

/**
 * The income statement as rows: lines (with accounts) and the running result after each section
 * that has lines (the operating income and the annual result always).
 */
export function incomeStatementTable(income: IncomeStatement, withAccounts: boolean): ExportTable {
  const columns = income.compareFrom && income.compareTo ? [period(income.dateFrom, income.dateTo), period(income.compareFrom, income.compareTo)] : [period(income.dateFrom, income.dateTo)];
  const rows: ExportRow[] = [];
  income.sections.forEach((section, index) => {
    for (const line of section.lines) {
      rows.push({ kind: 'line', section: section.key, line: line.key, number: null, label: line.label, amounts: amounts(line) });
      if (withAccounts) rows.push(...accountRows(section.key, line.key, line.accounts));
    }
    const last = index === income.sections.length - 1;
    // A running result equal to the one before it (its section has no lines) would only repeat it.
    if (section.lines.length === 0 && !last && index > 0) return;
    rows.push({ kind: last ? 'grandTotal' : 'total', section: section.key, line: '', number: null, label: section.total.label, amounts: amounts(section.total) });
  });
  return { statement: 'income', title: `${income.title} ${period(income.dateFrom, income.dateTo)}`, currency: income.currency, columns, rows };
}

/** Bilanz-2025-12-31, Erfolgsrechnung-2025-01-01_2025-12-31, Jahresrechnung-2025-12-31 (+ extension). */
export function exportFileName(kind: 'balance-sheet' | 'income' | 'both', lang: StatementLang, dates: { date?: string; dateFrom?: string; dateTo?: string }, extension: string): string {
  const name = kind === 'balance-sheet' ? FILE_NAMES.balanceSheet[lang] : kind === 'income' ? FILE_NAMES.income[lang] : FILE_NAMES.both[lang];
  const suffix = kind === 'income' ? `${dates.dateFrom}_${dates.dateTo}` : kind === 'both' ? dates.dateTo : dates.date;
  return `${name}-${suffix}.${extension}`;
}

// ------------------------------------------------------------------------------------------------
// CSV
// ------------------------------------------------------------------------------------------------

const CSV_COLUMNS = ['statement', 'kind', 'section', 'line', 'account', 'label', 'amount', 'compare'] as const;

/**
 * `statement,kind,section,line,account,label,amount[,compare]`, one row per export row; kind is
 * side | section | line | account | total | grandTotal; amounts with the natural sign of the side.
 * In a person's dialect the headers are in `lang` (the machine columns' values stay keys).
 */
export function statementsCsv(tables: readonly ExportTable[], dialect: CsvDialect = csvDialectOf(null), lang: StatementLang = 'en'): string {
  const withCompare = tables.some((table) => table.columns.length > 1);
  const columns = CSV_COLUMNS.slice(0, withCompare ? 8 : 7);
  const header = dialect.localized ? columns.map((column) => CSV_HEADERS[column][lang]) : [...columns];
  const amount = (value: string | null | undefined) => csvAmount(value ?? '', dialect);
  const rows = tables.flatMap((table) =>
    table.rows.map((row) => [table.statement, row.kind, row.section, row.line, csvSafeText(row.number ?? ''), csvSafeText(row.label), amount(row.amounts[0]), ...(withCompare ? [amount(row.amounts[1])] : [])]),
  );
  return toCsv([header, ...rows], dialect);
}

// ------------------------------------------------------------------------------------------------
// XLSX
// ------------------------------------------------------------------------------------------------

/** Swiss Excel shows this as 1'234.50 (the apostrophe is the locale's group separator). */
const NUMBER_FORMAT = '#,##0.00;-#,##0.00';

/**
 * One worksheet per statement: letterhead, title, currency, column headings, then the rows. Amounts
 * are number cells: Excel keeps IEEE doubles, and a 2-decimal amount below 10^13 goes through one
 * and back to the same 2-decimal text, so no cent changes.
 */
export async function statementsXlsx(tables: readonly ExportTable[], letterhead: Letterhead, lang: StatementLang): Promise<Buffer> {
  // exceljs (185 ms to load) comes with the first workbook, not with the server's start (issue 18 §3).
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Bilan';
  workbook.created = new Date();
  for (const table of tables) {
    const sheet = workbook.addWorksheet(table.statement === 'balance-sheet' ? STATEMENT_TEXTS.balanceSheet[lang] : STATEMENT_TEXTS.income[lang], {
      pageSetup: { paperSize: 9, orientation: 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
    });
    sheet.columns = [{ width: 10 }, { width: 70 }, ...table.columns.map(() => ({ width: 24 }))];
    sheet.addRow(['', letterhead.name]).font = { bold: true, size: 13 };
    sheet.addRow(['', table.title]).font = { bold: true, size: 12 };
    sheet.addRow(['', `${STATEMENT_TEXTS.currency[lang]}: ${table.currency}`]);
    sheet.addRow([]);
    const heading = sheet.addRow([STATEMENT_TEXTS.account[lang], '', ...table.columns]);
    heading.font = { bold: true };
    heading.eachCell((cell, col) => {
      cell.border = { bottom: { style: 'thin' } };
      if (col > 2) cell.alignment = { horizontal: 'right' };
    });
    sheet.views = [{ state: 'frozen', ySplit: 5 }];
    for (const row of table.rows) {
      const values = row.amounts.map((amount) => (amount === null ? null : Number(amount)));
      const added = sheet.addRow([row.number ?? '', row.label, ...values]);
      for (let col = 3; col < 3 + values.length; col += 1) added.getCell(col).numFmt = NUMBER_FORMAT;
      switch (row.kind) {
        case 'side':
          added.font = { bold: true, size: 12 };
          break;
        case 'section':
          added.font = { bold: true };
          break;
        case 'account':
          added.font = { color: { argb: 'FF555555' }, size: 10 };
          added.getCell(2).alignment = { indent: 2 };
          break;
        case 'line':
          added.getCell(2).alignment = { indent: 1 };
          break;
        case 'total':
          added.font = { bold: true };
          for (let col = 3; col < 3 + values.length; col += 1) added.getCell(col).border = { top: { style: 'thin' } };
          break;
        case 'grandTotal':
          added.font = { bold: true };
          for (let col = 3; col < 3 + values.length; col += 1) added.getCell(col).border = { top: { style: 'thin' }, bottom: { style: 'double' } };
          break;
      }
    }
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
