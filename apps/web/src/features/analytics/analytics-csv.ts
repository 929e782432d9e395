/**
 * An analysis as CSV: the name column, the documents column for customers and suppliers (invoices,
 * bills) or the account number first for accounts, then amount and share; `.` as the decimal
 * point, amounts with 2 decimals, rows in the answer's order (amount descending).
 */
import Papa from 'papaparse';
import { safeCsvText } from '../../lib/csv';
import { kindInfo, type Analytics } from './api';

export function analyticsCsv(analytics: Analytics): string {
  const info = kindInfo(analytics.kind);
  if (info.documents === null) {
    const rows = analytics.rows.map((row) => [safeCsvText(row.number ?? ''), safeCsvText(row.name), row.amount, row.share]);
    return Papa.unparse([['account', 'name', 'amount', 'share'], ...rows], { newline: '\n' }) + '\n';
  }
  const party = info.party.toLowerCase();
  const rows = analytics.rows.map((row) => [safeCsvText(row.name), String(row.documents ?? ''), row.amount, row.share]);
  return Papa.unparse([[party, info.documents.toLowerCase(), 'amount', 'share'], ...rows], { newline: '\n' }) + '\n';
}

/** RevenueByCustomer-2025.csv, ExpensesByAccount-2025.csv, … */
export const analyticsFileName = (analytics: Analytics) => `${kindInfo(analytics.kind).file}-${analytics.year}.csv`;
