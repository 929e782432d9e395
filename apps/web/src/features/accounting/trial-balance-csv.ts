/**
 * The trial balance as CSV. In the machine dialect as the CLI writes it (`account,name,debit,
 * credit,balance`, `.` as the decimal point, 2 decimals, debit positive), with `opening` after the
 * name when a period is chosen; for a person in their number format and language (decision 034).
 */
import { csvAmount, type CsvDialect } from '@bilan/domain';
import { safeCsvText as safeText, writeCsv, type CsvColumn } from '../../lib/csv';
import { msg } from '../../lib/i18n';
import type { TrialBalance } from './api';

const column = (name: string, label: string): CsvColumn => ({ name, label });

export function trialBalanceCsv(trial: TrialBalance, dialect: CsvDialect): string {
  const withOpening = trial.dateFrom !== null;
  const columns = [
    column('account', msg('Account')),
    column('name', msg('Name')),
    ...(withOpening ? [column('opening', msg('Opening balance'))] : []),
    column('debit', msg('Debit')),
    column('credit', msg('Credit')),
    column('balance', msg('Balance')),
  ];
  // Amounts stay plain numbers (a negative balance starts with '-'); only the texts are made safe.
  const amount = (value: string) => csvAmount(value, dialect);
  const rows = trial.accounts.map((a) => [safeText(a.number), safeText(a.name), ...(withOpening ? [amount(a.openingBalance)] : []), amount(a.debit), amount(a.credit), amount(a.balance)]);
  return writeCsv(columns, rows, dialect);
}

/** TrialBalance-2025-12-31.csv, or TrialBalance-2025-01-01_2025-12-31.csv for a period. */
export const trialBalanceFileName = (trial: TrialBalance) =>
  `TrialBalance-${trial.dateFrom ? `${trial.dateFrom}_` : ''}${trial.date}.csv`;
