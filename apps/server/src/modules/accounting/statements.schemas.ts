/**
 * Request and answer schemas of /api/accounting/statement/* (issue 12 §4; docs/api.md "Financial
 * statements"). Kept beside accounting.schemas.ts, whose building blocks they use.
 */
import { z } from 'zod';
import { numberFormats } from '@bilan/domain';
import { ledgerDate, strictObject } from './accounting.schemas.js';
import { STATEMENT_LANGS } from './statement-structure.js';

const money = z.string().meta({ description: 'decimal string, 2 decimals, natural sign of the side (see the route)', example: '1994.75' });
const compareMoney = money.nullable().describe('the prior-period column; null without one');

export const statementLang = z.enum(STATEMENT_LANGS, { error: 'lang must be one of de, fr, it, en' });
const optionalLang = statementLang.optional().describe('language of the labels (official terms of OR 959a/959b); default en');
const compareDateField = ledgerDate.nullable().optional();

export const balanceSheetBody = strictObject({
  date: ledgerDate.describe('the balance sheet date (inclusive)'),
  compareDate: compareDateField.describe('prior-period column; absent: the same date a year earlier; null: none'),
  lang: optionalLang,
});

export const incomeStatementBody = strictObject({
  dateFrom: ledgerDate,
  dateTo: ledgerDate,
  compareFrom: compareDateField.describe('prior period start; both compare dates absent: the same period a year earlier; both null: none'),
  compareTo: compareDateField.describe('prior period end, given together with compareFrom'),
  lang: optionalLang,
});

export const exportFormats = ['pdf', 'xlsx', 'csv'] as const;
export const exportKinds = ['balance-sheet', 'income', 'both'] as const;

export const statementExportBody = strictObject({
  kind: z.enum(exportKinds, { error: 'kind must be balance-sheet, income or both' }),
  format: z.enum(exportFormats, { error: 'format must be pdf, xlsx or csv' }),
  lang: statementLang,
  date: ledgerDate.optional().describe('balance sheet date; required for kind balance-sheet, default dateTo for both'),
  compareDate: compareDateField,
  dateFrom: ledgerDate.optional().describe('income statement period; required for income and both'),
  dateTo: ledgerDate.optional(),
  compareFrom: compareDateField,
  compareTo: compareDateField,
  withAccounts: z.boolean().default(true).describe('list the accounts under each line (default true)'),
  numberFormat: z
    .enum(numberFormats)
    .nullish()
    .describe("csv only: a person's file in this number format (decimal separator, `;` between fields where it is a comma, headers in `lang`, UTF-8 BOM); absent: the machine dialect"),
});
export type StatementExportBody = z.infer<typeof statementExportBody>;

const statementAccount = z.object({
  id: z.number().int().nullable().describe('ledger account id; null for the result not yet closed'),
  number: z.string().nullable(),
  name: z.string(),
  amount: money,
  compareAmount: compareMoney,
});

const statementLine = z.object({
  key: z.string().describe('stable line key, e.g. cash, tradeReceivables, netRevenue'),
  label: z.string(),
  ref: z.string().describe("the Code of Obligations' article, e.g. OR 959a Abs. 1 Ziff. 1 Bst. a"),
  side: z.enum(['debit', 'credit']).describe('debit lines show debit − credit, credit lines credit − debit'),
  amount: money,
  compareAmount: compareMoney,
  accounts: z.array(statementAccount),
});

const statementTotal = z.object({ label: z.string(), amount: money, compareAmount: compareMoney });

const statementSection = z.object({
  key: z.string(),
  label: z.string().nullable(),
  lines: z.array(statementLine),
  total: statementTotal.describe('balance sheet: the section total; income statement: the running result after the section'),
});

export const balanceSheetSchema = z.object({
  title: z.string(),
  lang: statementLang,
  currency: z.string(),
  date: z.string(),
  compareDate: z.string().nullable(),
  sides: z.array(z.object({ key: z.enum(['assets', 'liabilitiesAndEquity']), label: z.string(), sections: z.array(statementSection), total: statementTotal })),
  balanced: z.boolean().describe('total assets = total liabilities and equity'),
  compareBalanced: z.boolean().nullable(),
});

export const incomeStatementSchema = z.object({
  title: z.string(),
  lang: statementLang,
  currency: z.string(),
  dateFrom: z.string(),
  dateTo: z.string(),
  compareFrom: z.string().nullable(),
  compareTo: z.string().nullable(),
  sections: z.array(statementSection),
  result: statementTotal.describe('annual profit (positive) or loss (negative)'),
});
