/**
 * The trial balance as CSV, as the CLI writes it (`account,name,debit,credit,balance`, `.` as the
 * decimal point, 2 decimals, debit positive), with `opening` after the name when a period is chosen.
 */
import Papa from 'papaparse';
import { safeCsvText as safeText } from '../../lib/csv';
import type { TrialBalance } from './api';

export function trialBalanceCsv(trial: TrialBalance): string {
  const withOpening = trial.dateFrom !== null;
  const header = ['account', 'name', ...(withOpening ? ['opening'] : []), 'debit', 'credit', 'balance'];
  // Amounts stay plain numbers (a negative balance starts with '-'); only the texts are made safe.
  const rows = trial.accounts.map((a) => [safeText(a.number), safeText(a.name), ...(withOpening ? [a.openingBalance] : []), a.debit, a.credit, a.balance]);
  return Papa.unparse([header, ...rows], { newline: '\n' }) + '\n';
}

/** TrialBalance-2025-12-31.csv, or TrialBalance-2025-01-01_2025-12-31.csv for a period. */
export const trialBalanceFileName = (trial: TrialBalance) =>
  `TrialBalance-${trial.dateFrom ? `${trial.dateFrom}_` : ''}${trial.date}.csv`;
