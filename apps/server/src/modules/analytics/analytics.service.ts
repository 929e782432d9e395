/**
 * Analytics of a year (spec §7.1 "Analytics: /accounting/analytics/{kind} {year}, result sorted by
 * amount descending"; issue 12 §4): revenue by customer, expenses by supplier, revenue and expenses
 * by ledger account. The analytics module is the top layer: it asks the modules that own the
 * figures (invoicing, payables, accounting) through their facades and only ranks and shares them.
 */
import { AccountType, Money, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { instanceFiscalYear, trialBalance, type FiscalYear } from '../accounting/accounting.service.js';
import { countInvoices, revenueByCustomer } from '../invoicing/invoicing.service.js';
import { expensesBySupplier, payablesCounts } from '../payables/payables.service.js';

export const ANALYTICS_KINDS = ['revenue-by-customer', 'expenses-by-supplier', 'revenue-by-account', 'expenses-by-account'] as const;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];

export interface AnalyticsRow {
  /** Ledger account id (by-account kinds), else null. */
  id: number | null;
  /** Company uuid (customer or supplier), else null (accounts, the staff expenses row). */
  uuid: string | null;
  /** Ledger account number (by-account kinds), else null. */
  number: string | null;
  /** Company or account name, or 'Staff expenses'. */
  name: string;
  /** What a table shows: the name, "number name" for an account. */
  label: string;
  /** Books' currency, 2 decimals (see the kinds for what is summed). */
  amount: string;
  /** amount ÷ total × 100, 1 decimal, half-up; "0.0" when the total is 0. */
  share: string;
  /** Invoices or bills that make up the amount (party kinds), else null. */
  documents: number | null;
  /** The web page of the customer, supplier or account (or the bills list for staff expenses). */
  link: string;
}

export interface Analytics {
  kind: AnalyticsKind;
  /** The fiscal year, named by the calendar year it starts in. */
  year: number;
  /** "2025", or "2025/26" for a fiscal year from July 2025 to June 2026. */
  label: string;
  dateFrom: string;
  dateTo: string;
  /** Sum of the rows' amounts, 2 decimals. */
  total: string;
  /** Sorted by amount descending, then label. */
  rows: AnalyticsRow[];
}

/**
 * The period of an analysis year: the instance's fiscal year `year` (accounting settings, issue 12
 * §3), named by the calendar year it starts in as Banana names it and as the closing does: with a
 * July start, 2025 is 2025-07-01…2026-06-30 ("2025/26"); the calendar year by default.
 */
export async function analysisPeriod(tx: Tx, instanceId: string, year: number): Promise<FiscalYear> {
  return instanceFiscalYear(tx, instanceId, year);
}

type Figure = Omit<AnalyticsRow, 'share'>;

const companyLink = (uuid: string) => `/company/${uuid}/ap-ar`;
const accountLink = (id: number) => `/accounting/account/${id}/detail`;

/** By ledger account: the period's turnover of the accounts of `typeId`, closing entries left out. */
async function byAccount(tx: Tx, instanceId: string, period: { dateFrom: string; dateTo: string }, typeId: number): Promise<Figure[]> {
  // Without the year-end closing entries a closed year still shows its turnover (they empty the
  // income-statement accounts into 2979 at the year's last day).
  const trial = await trialBalance(tx, instanceId, period.dateTo, period.dateFrom, { excludeClosing: true });
  return trial.accounts
    .filter((account) => account.type.id === typeId)
    .map((account) => {
      const debit = new Money(account.debit);
      const credit = new Money(account.credit);
      // Revenue is what was credited, expenses what was debited, each net of the other side.
      const amount = typeId === AccountType.revenue ? credit.minus(debit) : debit.minus(credit);
      return {
        id: account.id,
        uuid: null,
        number: account.number,
        name: account.name,
        label: `${account.number} ${account.name}`,
        amount: toFixedAmount(amount),
        documents: null,
        link: accountLink(account.id),
      };
    })
    .filter((figure) => !new Money(figure.amount).isZero());
}

async function figuresOf(tx: Tx, instanceId: string, kind: AnalyticsKind, period: { dateFrom: string; dateTo: string }): Promise<Figure[]> {
  switch (kind) {
    case 'revenue-by-customer':
      return (await revenueByCustomer(tx, instanceId, period.dateFrom, period.dateTo)).map((customer) => ({
        id: null,
        uuid: customer.companyUuid,
        number: null,
        name: customer.name,
        label: customer.name,
        amount: customer.amount,
        documents: customer.invoices,
        link: companyLink(customer.companyUuid),
      }));
    case 'expenses-by-supplier':
      return (await expensesBySupplier(tx, instanceId, period.dateFrom, period.dateTo)).map((supplier) => ({
        id: null,
        uuid: supplier.companyUuid,
        number: null,
        name: supplier.name,
        label: supplier.name,
        amount: supplier.amount,
        documents: supplier.bills,
        link: supplier.companyUuid ? companyLink(supplier.companyUuid) : '/bill',
      }));
    case 'revenue-by-account':
      return byAccount(tx, instanceId, period, AccountType.revenue);
    case 'expenses-by-account':
      return byAccount(tx, instanceId, period, AccountType.expenses);
  }
}

/** Percent of `total`, 1 decimal half-up ("0.0" for a zero total). */
export function shareOf(amount: string, total: Money): string {
  return total.isZero() ? '0.0' : new Money(amount).dividedBy(total).times(100).toFixed(1);
}

/**
 * One analysis of `year` (kinds: ANALYTICS_KINDS; each kind's rule is documented where its figures
 * are made: invoicing `revenueByCustomer`, payables `expensesBySupplier`, `byAccount` above).
 */
export async function analytics(tx: Tx, instanceId: string, kind: AnalyticsKind, year: number): Promise<Analytics> {
  const { label, dateFrom, dateTo } = await analysisPeriod(tx, instanceId, year);
  const period = { dateFrom, dateTo };
  const figures = await figuresOf(tx, instanceId, kind, period);
  const total = figures.reduce((sum, figure) => sum.plus(new Money(figure.amount)), new Money(0));
  const rows = figures
    .sort((a, b) => new Money(b.amount).comparedTo(new Money(a.amount)) || a.label.localeCompare(b.label, 'de-CH'))
    .map((figure) => ({ ...figure, share: shareOf(figure.amount, total) }));
  return { kind, year, label, ...period, total: toFixedAmount(total), rows };
}

/** Dashboard tiles (spec §2.4): all documents, or with `year` those of that year (analysisPeriod). */
export async function dashboardCounts(tx: Tx, instanceId: string, year: number | null) {
  const fiscal = year === null ? null : await analysisPeriod(tx, instanceId, year);
  const period = fiscal && { dateFrom: fiscal.dateFrom, dateTo: fiscal.dateTo };
  const counts = await payablesCounts(tx, period);
  return { Mail: counts.mails, Payable: counts.payables, TransactionGroup: counts.transactionGroups, Invoice: await countInvoices(tx, instanceId, period) };
}
