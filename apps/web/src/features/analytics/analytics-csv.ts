/**
 * An analysis as CSV: the name column, the documents column for customers and suppliers (invoices,
 * bills) or the account number first for accounts, then amount and share; amounts with 2 decimals,
 * rows in the answer's order (amount descending). In the machine dialect (`.` decimals, lower-case
 * English headers) or a person's number format and language (decision 034).
 */
import { csvAmount, type CsvDialect } from '@bilan/domain';
import { safeCsvText, writeCsv, type CsvColumn } from '../../lib/csv';
import { msg } from '../../lib/i18n';
import { kindInfo, type Analytics } from './api';

const amountColumns: CsvColumn[] = [
  { name: 'amount', label: msg('Amount') },
  { name: 'share', label: msg('Share') },
];

export function analyticsCsv(analytics: Analytics, dialect: CsvDialect): string {
  const info = kindInfo(analytics.kind);
  const amounts = (row: Analytics['rows'][number]) => [csvAmount(row.amount, dialect), csvAmount(row.share, dialect)];
  if (info.documents === null) {
    const rows = analytics.rows.map((row) => [safeCsvText(row.number ?? ''), safeCsvText(row.name), ...amounts(row)]);
    return writeCsv([{ name: 'account', label: msg('Account') }, { name: 'name', label: msg('Name') }, ...amountColumns], rows, dialect);
  }
  const rows = analytics.rows.map((row) => [safeCsvText(row.name), String(row.documents ?? ''), ...amounts(row)]);
  return writeCsv([{ name: info.party.toLowerCase(), label: info.party }, { name: info.documents.toLowerCase(), label: info.documents }, ...amountColumns], rows, dialect);
}

/** RevenueByCustomer-2025.csv, ExpensesByAccount-2025.csv, … */
export const analyticsFileName = (analytics: Analytics) => `${kindInfo(analytics.kind).file}-${analytics.year}.csv`;
