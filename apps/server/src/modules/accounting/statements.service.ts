/**
 * Balance sheet (Bilanz) at a date and income statement (Erfolgsrechnung) for a period, in the
 * structure of OR 959a / 959b (statement-structure.ts), with an optional prior-period column
 * (issue 12 §4). One trial balance per column (balance.service.ts: month totals plus the postings
 * of a partial month), nothing per account, so a statement costs the same at a million postings.
 *
 * Amounts: decimal strings, 2 decimals, in the books' currency, each with the natural sign of its
 * side — assets and expenses debit − credit, liabilities, equity and revenue credit − debit — so a
 * normal statement shows positive figures and a contra balance (own shares, a loss) shows negative.
 *
 * Balances are cumulative (no opening entries): the balance sheet at a date is every balance-sheet
 * account's balance at that date plus the result not yet closed, −(sum of the revenue and expense
 * accounts' balances at that date, closing entries included), shown in equity beside 2979; so it
 * balances whenever the books do. The income statement leaves out the year-end closing entries of
 * its period (source 'closing'), which would otherwise zero it.
 */
import { Money, toFixedAmount, type CurrencyCode } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { trialBalance } from './balance.service.js';
import { monthEnd } from './balance.sql.js';
import { booksCurrency } from './ledger-account.service.js';
import {
  BALANCE_SHEET_LINES,
  BALANCE_SHEET_SIDES,
  INCOME_LINES,
  INCOME_SECTIONS,
  isBalanceSheetType,
  STATEMENT_TEXTS,
  statementLineOf,
  type LineKey,
  type Side,
  type StatementLang,
} from './statement-structure.js';

export interface StatementAmount {
  /** Natural sign of the side, 2 decimals, instance currency. */
  amount: string;
  /** The same for the prior-period column; null without one. */
  compareAmount: string | null;
}

export interface StatementAccount extends StatementAmount {
  /** Ledger account id; null for the result not yet closed (not an account, no postings to open). */
  id: number | null;
  number: string | null;
  name: string;
}

export interface StatementLine extends StatementAmount {
  key: LineKey;
  label: string;
  /** The article of the Code of Obligations, e.g. 'OR 959a Abs. 1 Ziff. 1 Bst. a'. */
  ref: string;
  side: Side;
  /** Accounts with a non-zero amount in one of the columns, by number. */
  accounts: StatementAccount[];
}

export interface StatementTotal extends StatementAmount {
  label: string;
}

export interface StatementSection {
  key: string;
  /** Heading; null for the income statement, whose sections are read by their closing result. */
  label: string | null;
  lines: StatementLine[];
  /** Balance sheet: the section's total. Income statement: the running result after the section. */
  total: StatementTotal;
}

export interface BalanceSheet {
  title: string;
  lang: StatementLang;
  currency: CurrencyCode;
  date: string;
  compareDate: string | null;
  sides: { key: 'assets' | 'liabilitiesAndEquity'; label: string; sections: StatementSection[]; total: StatementTotal }[];
  /** Total assets = total liabilities and equity at `date`. */
  balanced: boolean;
  /** The same at `compareDate`; null without a prior-period column. */
  compareBalanced: boolean | null;
}

export interface IncomeStatement {
  title: string;
  lang: StatementLang;
  currency: CurrencyCode;
  dateFrom: string;
  dateTo: string;
  compareFrom: string | null;
  compareTo: string | null;
  sections: StatementSection[];
  /** The annual profit (positive) or loss (negative): the last section's running result. */
  result: StatementTotal;
}

/**
 * The same day one year earlier; a month's last day maps to that month's last day (2025-02-28 →
 * 2024-02-29, 2024-02-29 → 2023-02-28), so a period of whole months stays one.
 */
export function yearBefore(date: string): string {
  const year = String(Number(date.slice(0, 4)) - 1).padStart(4, '0');
  if (date === monthEnd(date)) return monthEnd(`${year}-${date.slice(5, 7)}-01`);
  return `${year}${date.slice(4)}`;
}

/** One column: each account's debit − credit (balance or period movement) with its number, name and type. */
type Column = Map<number, { number: string; name: string; typeId: number; value: Money }>;

const ZERO = new Money(0);
const fixed = (value: Money) => toFixedAmount(value);
const sum = (values: readonly Money[]) => values.reduce((total, value) => total.plus(value), ZERO);

/** Balance at `date` of every account with postings, closing entries included. */
async function balanceColumn(tx: Tx, instanceId: string, date: string): Promise<Column> {
  const trial = await trialBalance(tx, instanceId, date);
  return new Map(trial.accounts.map((a) => [a.id, { number: a.number, name: a.name, typeId: a.type.id, value: new Money(a.balance) }]));
}

/** Debit − credit of dateFrom…dateTo of every account, without the closing entries of the period. */
async function movementColumn(tx: Tx, instanceId: string, dateFrom: string, dateTo: string): Promise<Column> {
  const trial = await trialBalance(tx, instanceId, dateTo, dateFrom, { excludeClosing: true });
  return new Map(trial.accounts.map((a) => [a.id, { number: a.number, name: a.name, typeId: a.type.id, value: new Money(a.debit).minus(a.credit) }]));
}

interface LineDraft {
  key: LineKey;
  side: Side;
  accounts: { id: number | null; number: string | null; name: string; values: Money[] }[];
}

/**
 * Puts each account of the columns on its line (statementLineOf), with the line's sign; accounts
 * zero in every column are left out. Only lines of `lines` are filled (the other statement's
 * accounts are skipped).
 */
function draftLines(columns: readonly Column[], lines: Record<string, { side: Side }>): Map<LineKey, LineDraft> {
  const drafts = new Map<LineKey, LineDraft>();
  const ids = [...new Set(columns.flatMap((column) => [...column.keys()]))];
  const heads = ids.map((id) => ({ id, head: columns.find((column) => column.has(id))!.get(id)! }));
  heads.sort((a, b) => (a.head.number < b.head.number ? -1 : a.head.number > b.head.number ? 1 : a.id - b.id));
  for (const { id, head } of heads) {
    const key = statementLineOf({ number: head.number, typeId: head.typeId });
    const definition = lines[key];
    if (!definition) continue;
    const sign = definition.side === 'debit' ? 1 : -1;
    const values = columns.map((column) => (column.get(id)?.value ?? ZERO).times(sign));
    if (values.every((value) => value.isZero())) continue;
    let draft = drafts.get(key);
    if (!draft) drafts.set(key, (draft = { key, side: definition.side, accounts: [] }));
    draft.accounts.push({ id, number: head.number, name: head.name, values });
  }
  return drafts;
}

const amountsOf = (values: readonly Money[]): StatementAmount => ({
  amount: fixed(values[0] ?? ZERO),
  compareAmount: values.length > 1 ? fixed(values[1]!) : null,
});

function toLine(draft: LineDraft, definition: { ref: string; labels: Record<StatementLang, string> }, lang: StatementLang, columnCount: number): { line: StatementLine; totals: Money[] } {
  const totals = Array.from({ length: columnCount }, (_, i) => sum(draft.accounts.map((account) => account.values[i]!)));
  return {
    line: {
      key: draft.key,
      label: definition.labels[lang],
      ref: definition.ref,
      side: draft.side,
      ...amountsOf(totals),
      accounts: draft.accounts.map((account) => ({ id: account.id, number: account.number, name: account.name, ...amountsOf(account.values) })),
    },
    totals,
  };
}

/**
 * Balance sheet at `date`, with a column at `compareDate` unless it is null. Every account of type
 * asset, liability or equity on its OR 959a line; the revenue and expense balances not yet closed
 * as the result in equity (line 'annualResult', an entry without account id).
 */
export async function balanceSheet(tx: Tx, instanceId: string, input: { date: string; compareDate: string | null; lang: StatementLang }): Promise<BalanceSheet> {
  const { date, compareDate, lang } = input;
  const dates = compareDate ? [date, compareDate] : [date];
  const columns: Column[] = [];
  for (const at of dates) columns.push(await balanceColumn(tx, instanceId, at));
  const currency = await booksCurrency(tx, instanceId);

  const drafts = draftLines(columns, BALANCE_SHEET_LINES);
  // The result not yet closed: credit − debit of every revenue and expense account at the date.
  const unclosed = columns.map((column) => sum([...column.values()].filter((a) => !isBalanceSheetType(a.typeId)).map((a) => a.value)).negated());
  const result = drafts.get('annualResult') ?? { key: 'annualResult' as const, side: 'credit' as const, accounts: [] };
  drafts.set('annualResult', result);
  if (unclosed.some((value) => !value.isZero())) result.accounts.push({ id: null, number: null, name: STATEMENT_TEXTS.unclosedResult[lang], values: unclosed });

  const sides = BALANCE_SHEET_SIDES.map((side) => {
    const sideTotals = dates.map(() => ZERO);
    const sections = side.sections.map((section): StatementSection => {
      const sectionTotals = dates.map(() => ZERO);
      const lines: StatementLine[] = [];
      for (const [key, definition] of Object.entries(BALANCE_SHEET_LINES) as [keyof typeof BALANCE_SHEET_LINES, (typeof BALANCE_SHEET_LINES)[keyof typeof BALANCE_SHEET_LINES]][]) {
        if (definition.section !== section.key) continue;
        const draft = drafts.get(key);
        // Lines without accounts are left out, except the year's result (always part of equity).
        if (!draft || (draft.accounts.length === 0 && key !== 'annualResult')) continue;
        const { line, totals } = toLine(draft, definition, lang, dates.length);
        lines.push(line);
        totals.forEach((value, i) => (sectionTotals[i] = sectionTotals[i]!.plus(value)));
      }
      sectionTotals.forEach((value, i) => (sideTotals[i] = sideTotals[i]!.plus(value)));
      return { key: section.key, label: section.labels[lang], lines, total: { label: section.total[lang], ...amountsOf(sectionTotals) } };
    });
    return { key: side.key, label: side.labels[lang], sections, total: { label: side.total[lang], ...amountsOf(sideTotals) }, totals: sideTotals };
  });
  const [assets, passives] = sides as [(typeof sides)[number], (typeof sides)[number]];
  const isBalanced = (i: number) => assets.totals[i]!.eq(passives.totals[i]!);
  return {
    title: STATEMENT_TEXTS.balanceSheet[lang],
    lang,
    currency,
    date,
    compareDate,
    sides: sides.map(({ totals: _totals, ...side }) => side),
    balanced: isBalanced(0),
    compareBalanced: compareDate ? isBalanced(1) : null,
  };
}

/**
 * Income statement of dateFrom…dateTo (inclusive), with a column of compareFrom…compareTo unless
 * `compare` is null. Every revenue and expense account's movement of the period, closing entries
 * left out, on its OR 959b line; each section ends with the running result, the last one with the
 * annual profit or loss.
 */
export async function incomeStatement(
  tx: Tx,
  instanceId: string,
  input: { dateFrom: string; dateTo: string; compare: { dateFrom: string; dateTo: string } | null; lang: StatementLang },
): Promise<IncomeStatement> {
  const { dateFrom, dateTo, compare, lang } = input;
  const periods = compare ? [{ dateFrom, dateTo }, compare] : [{ dateFrom, dateTo }];
  const columns: Column[] = [];
  for (const period of periods) columns.push(await movementColumn(tx, instanceId, period.dateFrom, period.dateTo));
  const currency = await booksCurrency(tx, instanceId);

  const drafts = draftLines(columns, INCOME_LINES);
  const running = periods.map(() => ZERO);
  const sections = INCOME_SECTIONS.map((section): StatementSection => {
    const lines: StatementLine[] = [];
    for (const [key, definition] of Object.entries(INCOME_LINES) as [keyof typeof INCOME_LINES, (typeof INCOME_LINES)[keyof typeof INCOME_LINES]][]) {
      if (definition.section !== section.key) continue;
      const draft = drafts.get(key);
      if (!draft) continue;
      const { line, totals } = toLine(draft, definition, lang, periods.length);
      lines.push(line);
      // Revenue adds to the result, expenses take from it.
      totals.forEach((value, i) => (running[i] = definition.side === 'credit' ? running[i]!.plus(value) : running[i]!.minus(value)));
    }
    return { key: section.key, label: null, lines, total: { label: section.result[lang], ...amountsOf(running) } };
  });
  return {
    title: STATEMENT_TEXTS.income[lang],
    lang,
    currency,
    dateFrom,
    dateTo,
    compareFrom: compare?.dateFrom ?? null,
    compareTo: compare?.dateTo ?? null,
    sections,
    result: sections[sections.length - 1]!.total,
  };
}
