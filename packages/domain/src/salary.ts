/**
 * Salary import (issue 16 §3, decision 026): the wage types (Lohnarten) of a payroll journal and the
 * ledger accounts they post to, with the Swiss SME chart's defaults (Kontenrahmen KMU: 5000 Löhne,
 * 5700 AHV/IV/EO/ALV, 5720 berufliche Vorsorge, 5730 Unfallversicherung, 5740 Krankentaggeld, 2270
 * Sozialversicherungen, 2271 Vorsorgeeinrichtung, 2250 Personal, 1091 Lohndurchlaufkonto).
 *
 * Every gross wage is debited to its expense and credited to the clearing account 1091; every
 * employee deduction is debited to 1091 and credited to what is owed (social insurances, pension
 * fund); the net pay is debited to 1091 and credited to the staff account 2250, so 1091 ends each
 * run at zero when the payroll adds up.
 */

/** One wage type's posting: a side left null comes from the file's own debit/credit column. */
export interface SalaryWageType {
  /** The payroll software's wage type code, as in the file (e.g. '1000'). */
  code: string;
  name: string;
  debitAccount: string | null;
  creditAccount: string | null;
  /** The net salary: with claims chosen, its rows become claims owed to the employee. */
  isNetPay: boolean;
}

/** How imported rows form journal entries: one entry per period, or per period and employee. */
export const SALARY_GROUPINGS = ['period', 'employee'] as const;
export type SalaryGrouping = (typeof SALARY_GROUPINGS)[number];

/** The salary clearing account (Lohndurchlaufkonto) of the Swiss SME chart. */
export const SALARY_CLEARING_ACCOUNT = '1091';

/**
 * Accounts of the Swiss SME chart the salary defaults use that the seeded chart (chart-de.csv, a
 * copy of its source) lacks: created on first use with these names, as VAT accounts are.
 */
export const SALARY_CHART_ACCOUNTS: Readonly<Record<string, string>> = {
  '1091': 'Lohndurchlaufkonto',
  '2271': 'Verbindlichkeiten Vorsorgeeinrichtungen',
};

const w = (code: string, name: string, debitAccount: string, creditAccount: string, isNetPay = false): SalaryWageType => ({ code, name, debitAccount, creditAccount, isNetPay });

/** The default mapping of an instance that saved none: common Swiss wage types. */
export const DEFAULT_SALARY_WAGE_TYPES: readonly SalaryWageType[] = [
  w('1000', 'Monatslohn', '5000', '1091'),
  w('1005', 'Stundenlohn', '5000', '1091'),
  w('1200', '13. Monatslohn', '5000', '1091'),
  w('1300', 'Bonus', '5000', '1091'),
  w('3000', 'Kinderzulage', '2270', '1091'),
  w('5010', 'AHV/IV/EO Arbeitnehmer', '1091', '2270'),
  w('5020', 'ALV Arbeitnehmer', '1091', '2270'),
  w('5040', 'NBU Arbeitnehmer', '1091', '2270'),
  w('5045', 'KTG Arbeitnehmer', '1091', '2270'),
  w('5050', 'BVG Arbeitnehmer', '1091', '2271'),
  w('6000', 'AHV/IV/EO Arbeitgeber', '5700', '2270'),
  w('6010', 'ALV Arbeitgeber', '5700', '2270'),
  w('6020', 'FAK Arbeitgeber', '5700', '2270'),
  w('6030', 'BVG Arbeitgeber', '5720', '2271'),
  w('6040', 'BU Arbeitgeber', '5730', '2270'),
  w('6045', 'KTG Arbeitgeber', '5740', '2270'),
  w('8000', 'Nettolohn', '1091', '2250', true),
];

/**
 * The columns of a payroll journal file, by normalised header (lower case, no spaces, '-' or '_'),
 * with the header names Swiss payroll exports use for them (German, French, English).
 */
export const SALARY_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  period: ['period', 'periode', 'monat', 'lohnperiode', 'mois'],
  date: ['date', 'datum', 'valuta', 'buchungsdatum'],
  employee: ['employee', 'mitarbeiter', 'mitarbeitende', 'personal', 'name', 'employe', 'collaborateur'],
  iban: ['iban'],
  wagetype: ['wagetype', 'lohnart', 'lohnartnr', 'genre', 'genredesalaire'],
  description: ['description', 'text', 'bezeichnung', 'buchungstext', 'libelle'],
  amount: ['amount', 'betrag', 'montant'],
  debit: ['debit', 'soll', 'sollkonto', 'debitaccount'],
  credit: ['credit', 'haben', 'habenkonto', 'creditaccount'],
  account: ['account', 'konto', 'compte'],
};

/** The column a header names (see SALARY_COLUMNS), or undefined. */
export function salaryColumnOf(header: string): string | undefined {
  const key = header.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[\s_\-.]/g, '');
  return Object.keys(SALARY_COLUMNS).find((column) => SALARY_COLUMNS[column]!.includes(key));
}
