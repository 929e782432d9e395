/**
 * Year-end closing (issue 12 §3, spec §2.2 `/accounting/close`, decision 015). Closing a fiscal
 * year posts ONE entry (source 'closing', dated the year's last day) that moves every revenue and
 * expense account's balance for the year to the profit-or-loss account (2979 "Jahresgewinn oder
 * -verlust" by default), then locks the year at its last day. Bilan's balances are cumulative, so
 * the balance sheet accounts carry into the next year without an opening entry. Reopening (owner
 * only) removes the lock and posts the reversal of the closing entry; the closing row stays as
 * history. Closing, reopening and settings changes lock the instance's settings row first, so
 * they run one after the other; a parallel repeat answers 409 `already_done`.
 */
import { AccountType, Money, toFixedAmount, type CurrencyCode, type MessageLanguage } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone } from '../../http/errors.js';
import { recordAudit, type ClosingAuditEvent } from '../audit/audit.service.js';
import { AccountingError, invalidField } from './accounting.errors.js';
import { selectLockDate } from './accounting.sql.js';
import { todayInSwitzerland, trialBalance } from './balance.service.js';
import type { ChecksReport } from './checks.service.js';
import { CLOSING_SOURCE } from './balance.sql.js';
import {
  lockAccountingSettings,
  insertFiscalYearClosing,
  markClosingReopened,
  selectAccountingSettings,
  selectClosingsOfYear,
  selectFiscalYearClosings,
  selectFiscalYearTurnovers,
  selectLocksAfter,
  setClosingReversal,
  updateAccountingSettings,
  type CheckAcknowledgement,
  type FiscalYearClosingRow,
} from './closing.sql.js';
import { withDocumentPostingWrite, type DocumentResolver } from './document-posting.js';
import { dayAfter, fiscalYear, fiscalYearNumberOf, MONTH_NAMES, type FiscalYear } from './fiscal-year.js';
import { getJournalEntry, postJournalEntry, type PostingInput } from './journal-entry.service.js';
import { booksCurrency, createLedgerAccount } from './ledger-account.service.js';
import { selectLedgerAccounts } from './ledger-account.sql.js';
import { createAccountingLock, removeAccountingLock, type LockActor } from './lock.service.js';

export type { CheckAcknowledgement, FiscalYearClosingRow } from './closing.sql.js';
export type { FiscalYear } from './fiscal-year.js';

/** The profit-or-loss account of the Swiss SME chart (Kontenrahmen KMU 2979), the default. */
export const DEFAULT_PROFIT_LOSS_ACCOUNT = { number: '2979', name: 'Jahresgewinn oder -verlust' } as const;

const INCOME_STATEMENT_TYPES: readonly number[] = [AccountType.expenses, AccountType.revenue];
const isIncomeStatementType = (typeId: number) => INCOME_STATEMENT_TYPES.includes(typeId);

/** Who closes or reopens, for the audit trail. */
export type ClosingActor = LockActor;

// ------------------------------------------------------------------------------------------------
// Checks (issue 12 §2): the closing re-runs them for the year and refuses unacknowledged failures.
// ------------------------------------------------------------------------------------------------

/**
 * Runs the accounting checks for a period: `runChecks` with the modules' sources
 * (accounting.routes.ts), its texts in `language` (English when not given).
 */
export type ClosingChecksRunner = (tx: Tx, instanceId: string, period: { dateFrom: string; dateTo: string }, language?: MessageLanguage) => Promise<ChecksReport>;

// ------------------------------------------------------------------------------------------------
// Settings
// ------------------------------------------------------------------------------------------------

/** A ledger account as the closing names it; `id` null for the default 2979 not yet in the chart. */
export interface ClosingAccount {
  id: number | null;
  number: string;
  name: string;
}

export interface AccountingSettings {
  /** 1 = January (calendar year) … 12 = December. */
  fiscalYearStartMonth: number;
  /** Where the year's result goes; `isDefault` when it is the chart's 2979 (not chosen). */
  profitLossAccount: ClosingAccount & { isDefault: boolean };
}

async function accountByNumber(tx: Tx, instanceId: string, number: string) {
  const [account] = await selectLedgerAccounts(tx, instanceId, { numbers: [number] });
  return account;
}

async function accountById(tx: Tx, instanceId: string, id: number) {
  const [account] = await selectLedgerAccounts(tx, instanceId, { ids: [id] });
  return account;
}

async function resolveProfitLossAccount(tx: Tx, instanceId: string, storedId: number | null): Promise<AccountingSettings['profitLossAccount']> {
  if (storedId !== null) {
    const account = await accountById(tx, instanceId, storedId);
    if (account) return { id: account.id, number: account.number, name: account.name, isDefault: false };
  }
  const chartAccount = await accountByNumber(tx, instanceId, DEFAULT_PROFIT_LOSS_ACCOUNT.number);
  return chartAccount
    ? { id: chartAccount.id, number: chartAccount.number, name: chartAccount.name, isDefault: true }
    : { id: null, ...DEFAULT_PROFIT_LOSS_ACCOUNT, isDefault: true };
}

/** The instance's accounting settings: calendar year and 2979 unless changed. */
export async function getAccountingSettings(tx: Tx, instanceId: string): Promise<AccountingSettings> {
  const stored = await selectAccountingSettings(tx, instanceId);
  return {
    fiscalYearStartMonth: stored?.fiscalYearStartMonth ?? 1,
    profitLossAccount: await resolveProfitLossAccount(tx, instanceId, stored?.profitLossAccountId ?? null),
  };
}

/**
 * The instance's fiscal year `year` (named by the calendar year it starts in, as Banana does: with a
 * July start, 2025 is 2025-07-01…2026-06-30, "2025/26"); the calendar year by default. What the
 * analytics and the dashboard call a year.
 */
export async function instanceFiscalYear(tx: Tx, instanceId: string, year: number): Promise<FiscalYear> {
  return fiscalYear(year, (await getAccountingSettings(tx, instanceId)).fiscalYearStartMonth);
}

/** The instance's fiscal year that contains `date` (YYYY-MM-DD). */
export async function instanceFiscalYearOf(tx: Tx, instanceId: string, date: string): Promise<FiscalYear> {
  const { fiscalYearStartMonth } = await getAccountingSettings(tx, instanceId);
  return fiscalYear(fiscalYearNumberOf(date, fiscalYearStartMonth), fiscalYearStartMonth);
}

async function audit(tx: Tx, instanceId: string, actor: ClosingActor, event: ClosingAuditEvent, detail: Record<string, unknown>): Promise<void> {
  await recordAudit(tx, { event, instanceId, userId: actor.userId, ip: actor.ip ?? null, userAgent: actor.userAgent ?? null, detail });
}

/** The closed fiscal years (active closings), oldest first. */
async function closedYears(tx: Tx, instanceId: string): Promise<FiscalYearClosingRow[]> {
  return (await selectFiscalYearClosings(tx, instanceId)).filter((closing) => closing.status === 'closed');
}

/**
 * Changes the fiscal year start and/or the profit-or-loss account (`null`: back to the chart's
 * 2979) and returns the settings. 409 `fiscal_year_closed` for a new start month while a closed
 * year exists (the closed years' periods would no longer be fiscal years); 400
 * `profitLossAccount.id` for an unknown account or one that is not an equity account. Audited.
 */
export async function updateSettings(
  tx: Tx,
  instanceId: string,
  patch: { fiscalYearStartMonth?: number | undefined; profitLossAccountId?: number | null | undefined },
  actor: ClosingActor,
): Promise<AccountingSettings> {
  const before = await lockAccountingSettings(tx, instanceId);
  const startMonth = patch.fiscalYearStartMonth ?? before.fiscalYearStartMonth;
  if (startMonth !== before.fiscalYearStartMonth) {
    const closed = await closedYears(tx, instanceId);
    if (closed.length > 0) {
      const labels = closed.map((closing) => fiscalYear(closing.fiscalYear, before.fiscalYearStartMonth).label).join(', ');
      const message =
        `the fiscal year start cannot change while a closed fiscal year exists (${labels}): the closed years would no longer be ` +
        `fiscal years. Reopen them first, or keep ${MONTH_NAMES[before.fiscalYearStartMonth - 1]}.`;
      throw new AccountingError('fiscal_year_closed', message, { fiscalYearStartMonth: message });
    }
  }
  const profitLossAccountId = patch.profitLossAccountId === undefined ? before.profitLossAccountId : patch.profitLossAccountId;
  if (profitLossAccountId !== null && profitLossAccountId !== before.profitLossAccountId) {
    const account = await accountById(tx, instanceId, profitLossAccountId);
    if (!account) throw invalidField('profitLossAccount.id', `ledger account ${profitLossAccountId} not found`);
    if (account.type.id !== AccountType.equity) {
      throw invalidField(
        'profitLossAccount.id',
        `ledger account ${account.number} is not an equity account: the year's result goes to equity (e.g. 2979 Jahresgewinn oder -verlust)`,
      );
    }
  }
  const after = await updateAccountingSettings(tx, instanceId, { fiscalYearStartMonth: startMonth, profitLossAccountId }, actor.userId);
  await audit(tx, instanceId, actor, 'accounting_settings.updated', {
    before: { fiscalYearStartMonth: before.fiscalYearStartMonth, profitLossAccountId: before.profitLossAccountId },
    after: { fiscalYearStartMonth: after.fiscalYearStartMonth, profitLossAccountId: after.profitLossAccountId },
  });
  return getAccountingSettings(tx, instanceId);
}

// ------------------------------------------------------------------------------------------------
// Fiscal years
// ------------------------------------------------------------------------------------------------

/** A closing as the API answers it. */
export interface ClosingRecord {
  uuid: string;
  fiscalYear: FiscalYear;
  status: 'closed' | 'reopened';
  /** Revenue − expenses, 2 decimals, positive for a profit. */
  result: string;
  profitLossAccount: ClosingAccount;
  closingEntry: { id: number } | null;
  reversalEntry: { id: number } | null;
  /** The lock date the closing set (the year's last day); `lock` is null once reopened. */
  lockDate: string;
  lock: { uuid: string } | null;
  acknowledgements: CheckAcknowledgement[];
  closedAt: string;
  closedBy: { id: string } | null;
  reopenedAt: string | null;
  reopenedBy: { id: string } | null;
}

async function toClosingRecord(tx: Tx, instanceId: string, row: FiscalYearClosingRow, startMonth: number): Promise<ClosingRecord> {
  const account = await accountById(tx, instanceId, row.profitLossAccountId);
  return {
    uuid: row.uuid,
    fiscalYear: { ...fiscalYear(row.fiscalYear, startMonth), dateFrom: row.dateFrom, dateTo: row.dateTo },
    status: row.status,
    result: toFixedAmount(new Money(row.result)),
    profitLossAccount: { id: row.profitLossAccountId, number: account?.number ?? '', name: account?.name ?? '' },
    closingEntry: row.closingEntryId === null ? null : { id: row.closingEntryId },
    reversalEntry: row.reversalEntryId === null ? null : { id: row.reversalEntryId },
    lockDate: row.dateTo,
    lock: row.lockUuid === null ? null : { uuid: row.lockUuid },
    acknowledgements: row.acknowledgements,
    closedAt: row.closedAt,
    closedBy: row.closedBy === null ? null : { id: row.closedBy },
    reopenedAt: row.reopenedAt,
    reopenedBy: row.reopenedBy === null ? null : { id: row.reopenedBy },
  };
}

export interface FiscalYearSummary extends FiscalYear {
  status: 'open' | 'closed';
  hasPostings: boolean;
  /** Revenue − expenses (profit positive): the closing's for a closed year, else the year's postings so far. */
  result: string;
  /** The active closing of a closed year. */
  closing: { uuid: string; closedAt: string; closedBy: { id: string } | null; closingEntry: { id: number } | null; lockDate: string } | null;
}

/**
 * The fiscal years with postings, the current one and any with a closing, the latest first, each
 * open or closed with its result. Reads the per-month table (not the postings).
 */
export async function listFiscalYears(
  tx: Tx,
  instanceId: string,
): Promise<{ fiscalYearStartMonth: number; currentYear: number; years: FiscalYearSummary[] }> {
  const startMonth = (await selectAccountingSettings(tx, instanceId))?.fiscalYearStartMonth ?? 1;
  const [turnovers, closings] = await Promise.all([selectFiscalYearTurnovers(tx, instanceId, startMonth), selectFiscalYearClosings(tx, instanceId)]);
  const currentYear = fiscalYearNumberOf(todayInSwitzerland(), startMonth);
  const byYear = new Map(turnovers.map((turnover) => [turnover.fiscalYear, turnover]));
  const years = new Set<number>([currentYear, ...closings.map((closing) => closing.fiscalYear)]);
  for (const turnover of turnovers) if (turnover.hasPostings) years.add(turnover.fiscalYear);
  return {
    fiscalYearStartMonth: startMonth,
    currentYear,
    years: [...years]
      .sort((a, b) => b - a)
      .map((year) => {
        const active = closings.find((closing) => closing.fiscalYear === year && closing.status === 'closed');
        const turnover = byYear.get(year);
        return {
          ...fiscalYear(year, startMonth),
          status: active ? 'closed' : 'open',
          hasPostings: turnover?.hasPostings ?? false,
          result: toFixedAmount(new Money(active?.result ?? turnover?.result ?? '0')),
          closing: active
            ? {
                uuid: active.uuid,
                closedAt: active.closedAt,
                closedBy: active.closedBy === null ? null : { id: active.closedBy },
                closingEntry: active.closingEntryId === null ? null : { id: active.closingEntryId },
                lockDate: active.dateTo,
              }
            : null,
        };
      }),
  };
}

/** Why a fiscal year cannot be closed now (the checks aside). */
export interface ClosingBlocker {
  code: 'fiscal_year_not_ended' | 'earlier_year_open' | 'period_locked';
  message: string;
}

/**
 * The reasons `closeFiscalYear` would refuse, in the order it checks them: the year has not ended;
 * an earlier year with postings is open (the earliest named); a lock on or after the year's last
 * day (the closing entry is dated that day).
 */
async function closingBlockers(tx: Tx, instanceId: string, fy: FiscalYear, startMonth: number): Promise<ClosingBlocker[]> {
  const blockers: ClosingBlocker[] = [];
  const today = todayInSwitzerland();
  if (fy.dateTo >= today) {
    blockers.push({
      code: 'fiscal_year_not_ended',
      message: `the fiscal year ${fy.label} ends on ${fy.dateTo}: it can be closed from ${dayAfter(fy.dateTo)}`,
    });
  }
  const [turnovers, closed] = await Promise.all([selectFiscalYearTurnovers(tx, instanceId, startMonth), closedYears(tx, instanceId)]);
  const closedSet = new Set(closed.map((closing) => closing.fiscalYear));
  const earlierOpen = turnovers.find((turnover) => turnover.fiscalYear < fy.year && turnover.hasPostings && !closedSet.has(turnover.fiscalYear));
  if (earlierOpen) {
    const label = fiscalYear(earlierOpen.fiscalYear, startMonth).label;
    blockers.push({ code: 'earlier_year_open', message: `the fiscal year ${label} has postings and is not closed: close it first` });
  }
  const lockDate = await selectLockDate(tx, instanceId);
  if (lockDate !== null && lockDate >= fy.dateTo) {
    blockers.push({
      code: 'period_locked',
      message:
        `the books are locked up to ${lockDate}, which covers ${fy.dateTo}, the date of the closing entry: ` +
        `delete that lock first (Accounting Locks); the closing locks the year again`,
    });
  }
  return blockers;
}

/** One line of the closing entry with the account's balance for the year before closing. */
export interface ClosingLine {
  account: ClosingAccount & { type: { id: number }; currency: CurrencyCode | null };
  /** The account's balance (debit − credit) for the fiscal year before closing. */
  balance: string;
  /** Absolute amount in the books' currency. */
  amount: string;
  /** 1 debit, -1 credit. */
  direction: 1 | -1;
}

/** An account's balance when the next year opens. */
export interface OpeningBalance {
  id: number | null;
  number: string;
  name: string;
  type: { id: number };
  currency: CurrencyCode | null;
  /** Debit − credit at the first day of the next year, before any of its postings. */
  balance: string;
}

interface ClosingFigures {
  lines: ClosingLine[];
  result: string;
  revenue: string;
  expenses: string;
  openingBalances: OpeningBalance[];
  openingTotal: string;
}

/**
 * The closing of `fy` computed from the trial balance of the year without its closing entries:
 * every revenue and expense account with a non-zero balance for the year is moved to `profitLoss`
 * (the account gets the opposite of its balance), and the profit-or-loss account takes the result
 * (a profit as a credit). The next year's opening balances are the balances at the year's end
 * after that entry: balance sheet accounts, the profit-or-loss account and any income account that
 * kept a balance from an earlier, unclosed year.
 */
async function closingFigures(tx: Tx, instanceId: string, fy: FiscalYear, profitLoss: ClosingAccount): Promise<ClosingFigures> {
  const tb = await trialBalance(tx, instanceId, fy.dateTo, fy.dateFrom, { excludeClosing: true });
  const lines: ClosingLine[] = [];
  let sum = new Money(0); // Σ (debit − credit) of the income accounts for the year
  let revenue = new Money(0);
  let expenses = new Money(0);
  const after = new Map<number, Money>();
  for (const account of tb.accounts) {
    let balanceAfter = new Money(account.balance);
    if (isIncomeStatementType(account.type.id)) {
      const yearBalance = new Money(account.debit).minus(account.credit);
      if (account.type.id === AccountType.revenue) revenue = revenue.minus(yearBalance);
      else expenses = expenses.plus(yearBalance);
      if (!yearBalance.isZero()) {
        sum = sum.plus(yearBalance);
        balanceAfter = balanceAfter.minus(yearBalance);
        lines.push({
          account: { id: account.id, number: account.number, name: account.name, type: account.type, currency: account.currency },
          balance: toFixedAmount(yearBalance),
          amount: toFixedAmount(yearBalance.abs()),
          direction: yearBalance.isPositive() ? -1 : 1,
        });
      }
    }
    after.set(account.id, balanceAfter);
  }
  const result = sum.negated();
  const profitLossRow = tb.accounts.find((account) => account.id === profitLoss.id);
  if (!result.isZero()) {
    lines.push({
      account: { ...profitLoss, type: profitLossRow?.type ?? { id: AccountType.equity }, currency: profitLossRow?.currency ?? null },
      balance: toFixedAmount(profitLossRow ? new Money(profitLossRow.debit).minus(profitLossRow.credit) : new Money(0)),
      amount: toFixedAmount(result.abs()),
      direction: result.isPositive() ? -1 : 1,
    });
  }
  const openingBalances: OpeningBalance[] = [];
  let openingTotal = new Money(0);
  for (const account of tb.accounts) {
    let balance = after.get(account.id)!;
    if (account.id === profitLoss.id) balance = balance.minus(result);
    if (balance.isZero()) continue;
    openingTotal = openingTotal.plus(balance);
    openingBalances.push({ id: account.id, number: account.number, name: account.name, type: account.type, currency: account.currency, balance: toFixedAmount(balance) });
  }
  if (!profitLossRow && !result.isZero()) {
    const balance = result.negated();
    openingTotal = openingTotal.plus(balance);
    openingBalances.push({ ...profitLoss, type: { id: AccountType.equity }, currency: null, balance: toFixedAmount(balance) });
    openingBalances.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  }
  return {
    lines,
    result: toFixedAmount(result),
    revenue: toFixedAmount(revenue),
    expenses: toFixedAmount(expenses),
    openingBalances,
    openingTotal: toFixedAmount(openingTotal),
  };
}

export interface ClosingPreview {
  fiscalYear: FiscalYear;
  status: 'open' | 'closed';
  /** Why booking would be refused now (checks aside); empty when it can be booked. */
  blockers: ClosingBlocker[];
  profitLossAccount: ClosingAccount;
  /** Revenue − expenses of the year (profit positive); revenue and expenses as positive totals of their balances. */
  result: string;
  revenue: string;
  expenses: string;
  /** The closing entry: proposed for an open year, as booked for a closed one (null entry id then). */
  entry: { id: number | null; dateLedger: string; description: string; lines: ClosingLine[] };
  /** The first day of the next fiscal year and every account's balance then (no opening entry: balances are cumulative). */
  opening: { date: string; accounts: OpeningBalance[]; total: string };
  /** The active closing of a closed year. */
  closing: ClosingRecord | null;
}

const closingDescription = (fy: FiscalYear) => `Year-end closing ${fy.label}`;

/**
 * The closing of fiscal year `year`: for an open year the entry that booking would post, the
 * result and the next year's opening balances, and what stands in the way (`blockers`); for a
 * closed year the booked closing with its entry's lines. Figures in the books' currency.
 */
export async function previewClosing(tx: Tx, instanceId: string, year: number): Promise<ClosingPreview> {
  const settings = await getAccountingSettings(tx, instanceId);
  const fy = fiscalYear(year, settings.fiscalYearStartMonth);
  const active = (await selectClosingsOfYear(tx, instanceId, year)).find((closing) => closing.status === 'closed');
  const closing = active ? await toClosingRecord(tx, instanceId, active, settings.fiscalYearStartMonth) : null;
  const profitLoss = closing ? closing.profitLossAccount : settings.profitLossAccount;
  const figures = await closingFigures(tx, instanceId, fy, profitLoss);
  let entry: ClosingPreview['entry'] = { id: null, dateLedger: fy.dateTo, description: closingDescription(fy), lines: figures.lines };
  if (closing?.closingEntry) {
    const booked = await getJournalEntry(tx, instanceId, closing.closingEntry.id);
    const proposed = new Map(figures.lines.map((line) => [line.account.id, line]));
    entry = {
      id: booked.id,
      dateLedger: booked.dateLedger,
      description: booked.description,
      lines: booked.entryAccounts.map((line) => ({
        account: {
          id: line.account.id,
          number: line.account.number,
          name: line.account.name,
          type: proposed.get(line.account.id)?.account.type ?? { id: AccountType.equity },
          currency: proposed.get(line.account.id)?.account.currency ?? null,
        },
        balance: proposed.get(line.account.id)?.balance ?? '0.00',
        amount: line.amount,
        direction: line.direction,
      })),
    };
  } else if (closing) {
    entry = { ...entry, lines: [] };
  }
  return {
    fiscalYear: fy,
    status: closing ? 'closed' : 'open',
    blockers: closing ? [] : await closingBlockers(tx, instanceId, fy, settings.fiscalYearStartMonth),
    profitLossAccount: { id: profitLoss.id, number: profitLoss.number, name: profitLoss.name },
    result: closing ? closing.result : figures.result,
    revenue: figures.revenue,
    expenses: figures.expenses,
    entry,
    opening: { date: dayAfter(fy.dateTo), accounts: figures.openingBalances, total: figures.openingTotal },
    closing,
  };
}

/** The checks for `fy` with what booking needs: the failures and which of them lack a note; texts in `language`. */
export async function checksForClosing(
  tx: Tx,
  instanceId: string,
  year: number,
  runChecks: ClosingChecksRunner,
  language: MessageLanguage = 'en',
): Promise<ChecksReport & { fiscalYear: FiscalYear }> {
  const settings = await getAccountingSettings(tx, instanceId);
  const fy = fiscalYear(year, settings.fiscalYearStartMonth);
  return { fiscalYear: fy, ...(await runChecks(tx, instanceId, { dateFrom: fy.dateFrom, dateTo: fy.dateTo }, language)) };
}

/** The profit-or-loss account to post to; the default 2979 is created as an equity account when the chart lacks it. */
async function ensureProfitLossAccount(tx: Tx, instanceId: string, storedId: number | null): Promise<ClosingAccount & { id: number }> {
  const resolved = await resolveProfitLossAccount(tx, instanceId, storedId);
  if (resolved.id !== null) {
    const account = (await accountById(tx, instanceId, resolved.id))!;
    if (isIncomeStatementType(account.type.id)) {
      const message = `the profit-or-loss account ${account.number} is a revenue or expense account: choose an equity account in the accounting settings`;
      throw new AccountingError('invalid_input', message, { profitLossAccount: message });
    }
    return { id: resolved.id, number: resolved.number, name: resolved.name };
  }
  const created = await createLedgerAccount(tx, instanceId, {
    ...DEFAULT_PROFIT_LOSS_ACCOUNT,
    currency: await booksCurrency(tx, instanceId),
    type: AccountType.equity,
  });
  return { id: created.id, number: created.number, name: created.name };
}

/**
 * Closes fiscal year `year` in the caller's transaction and returns the closing:
 * 1. 409 `already_done` when the year is closed; 409 `fiscal_year_not_ended`, `earlier_year_open`
 *    or `period_locked` (see closingBlockers);
 * 2. re-runs the checks for the year: 409 `checks_failed` (with `checks`, their texts in
 *    `language`) while a failed check has no acknowledgement with a note; the acknowledged failures
 *    are stored with the closing (in English);
 * 3. posts ONE entry dated the year's last day (source 'closing', source_ref the year's label)
 *    moving every revenue and expense account to the profit-or-loss account (none when there is
 *    nothing to move), as a document posting;
 * 4. locks the books at the year's last day (audited as any lock) and records the closing
 *    (audited `fiscal_year.closed`).
 */
export async function closeFiscalYear(
  tx: Tx,
  instanceId: string,
  year: number,
  acknowledgements: readonly { key: string; note: string }[],
  actor: ClosingActor,
  runChecks: ClosingChecksRunner,
  language: MessageLanguage = 'en',
): Promise<ClosingRecord> {
  const settings = await lockAccountingSettings(tx, instanceId);
  const startMonth = settings.fiscalYearStartMonth;
  const fy = fiscalYear(year, startMonth);
  const closings = await selectClosingsOfYear(tx, instanceId, year);
  if (closings.some((closing) => closing.status === 'closed')) throw alreadyDone(`the fiscal year ${fy.label} is already closed`);
  const [blocker] = await closingBlockers(tx, instanceId, fy, startMonth);
  if (blocker) throw new AccountingError(blocker.code, blocker.message);

  // In English: the acknowledged failures are stored with the closing as they were found.
  const period = { dateFrom: fy.dateFrom, dateTo: fy.dateTo };
  const report = await runChecks(tx, instanceId, period);
  const notes = new Map(acknowledgements.map((ack) => [ack.key, ack.note.trim()]));
  const failed = report.checks.filter((check) => check.status === 'failed');
  const unacknowledgedKeys = new Set(failed.filter((check) => !notes.get(check.key)).map((check) => check.key));
  if (unacknowledgedKeys.size > 0) {
    // The refusal is read by the user: the failures again, in the request's language.
    const shown = language === 'en' ? report : await runChecks(tx, instanceId, period, language);
    const unacknowledged = shown.checks.filter((check) => unacknowledgedKeys.has(check.key));
    const list = unacknowledged.map((check) => `"${check.name.replace(/\.$/, '')}": ${check.detail}`).join(' ');
    const count = unacknowledged.length === 1 ? '1 check failed' : `${unacknowledged.length} checks failed`;
    const message = `${count} for the fiscal year ${fy.label} (resolve it or acknowledge it with a note): ${list}`;
    throw new AccountingError('checks_failed', message, { acknowledgements: message }, {
      checks: unacknowledged.map(({ key, name, detail }) => ({ key, name, detail })),
    });
  }

  const profitLoss = await ensureProfitLossAccount(tx, instanceId, settings.profitLossAccountId);
  const figures = await closingFigures(tx, instanceId, fy, profitLoss);
  const lines: PostingInput[] = figures.lines.map((line) => ({
    accountId: line.account.id!,
    amount: line.amount,
    direction: line.direction,
    description: line.account.id === profitLoss.id ? `Result ${fy.label}` : null,
  }));
  const closingEntryId =
    lines.length >= 2
      ? await withDocumentPostingWrite(tx, () =>
          postJournalEntry(tx, instanceId, actor.userId, {
            dateLedger: fy.dateTo,
            description: closingDescription(fy),
            source: CLOSING_SOURCE,
            sourceRef: fy.label,
            lines,
          }),
        )
      : null;
  const lock = await createAccountingLock(tx, instanceId, { date: fy.dateTo }, actor);
  const row = await insertFiscalYearClosing(tx, instanceId, {
    fiscalYear: year,
    dateFrom: fy.dateFrom,
    dateTo: fy.dateTo,
    closingEntryId,
    profitLossAccountId: profitLoss.id,
    result: figures.result,
    lockUuid: lock.uuid,
    acknowledgements: failed.map((check) => ({ key: check.key, name: check.name, detail: check.detail, note: notes.get(check.key)! })),
    closedBy: actor.userId,
  });
  if (!row) throw alreadyDone(`the fiscal year ${fy.label} is already closed`);
  const record = await toClosingRecord(tx, instanceId, row, startMonth);
  await audit(tx, instanceId, actor, 'fiscal_year.closed', { closing: record });
  return record;
}

/**
 * Reopens closed fiscal year `year` (the caller checks that the user is an owner) and returns the
 * closing as reopened. 409 `fiscal_year_open` for a year that was never closed, `already_done`
 * when it was reopened already, `later_year_closed` while a later year is closed (reopen that one
 * first), `period_locked` while a lock dated after the year exists (named: the user deletes it
 * first). Removes the year's lock (audited as any lock deletion) and posts the reversal of the
 * closing entry on the year's last day (decision 015), so the revenue and expense accounts show
 * the year's balances again. Audited `fiscal_year.reopened`.
 */
export async function reopenFiscalYear(tx: Tx, instanceId: string, year: number, actor: ClosingActor): Promise<ClosingRecord> {
  const { fiscalYearStartMonth: startMonth } = await lockAccountingSettings(tx, instanceId);
  const closings = await selectFiscalYearClosings(tx, instanceId);
  const label = (y: number) => fiscalYear(y, startMonth).label;
  const active = closings.find((closing) => closing.fiscalYear === year && closing.status === 'closed');
  if (!active) {
    if (closings.some((closing) => closing.fiscalYear === year)) throw alreadyDone(`the fiscal year ${label(year)} is not closed: it was reopened already`);
    throw new AccountingError('fiscal_year_open', `the fiscal year ${label(year)} is not closed`);
  }
  const later = closings.filter((closing) => closing.status === 'closed' && closing.fiscalYear > year).map((closing) => closing.fiscalYear);
  if (later.length > 0) {
    const latest = Math.max(...later);
    throw new AccountingError('later_year_closed', `the fiscal year ${label(latest)} is closed: reopen it first (later years are reopened before earlier ones)`);
  }
  const [laterLock] = await selectLocksAfter(tx, instanceId, active.dateTo);
  if (laterLock) {
    throw new AccountingError(
      'period_locked',
      `the books are locked up to ${laterLock.lockDate}, after the fiscal year ${label(year)}: delete that lock first (Accounting Locks)`,
    );
  }
  const reopened = await markClosingReopened(tx, instanceId, active.uuid, actor.userId);
  if (!reopened) throw alreadyDone(`the fiscal year ${label(year)} is not closed: it was reopened already`);
  await removeAccountingLock(tx, instanceId, active.lockUuid!, actor);
  if (active.closingEntryId !== null) {
    const closingEntry = await getJournalEntry(tx, instanceId, active.closingEntryId);
    const reversalId = await withDocumentPostingWrite(tx, () =>
      postJournalEntry(tx, instanceId, actor.userId, {
        dateLedger: active.dateTo,
        description: `Reopening of fiscal year ${label(year)}: reversal of the year-end closing (entry ${closingEntry.id})`,
        source: CLOSING_SOURCE,
        sourceRef: label(year),
        lines: closingEntry.entryAccounts.map((line) => ({
          accountId: line.account.id,
          amount: line.amount,
          direction: line.direction === 1 ? -1 : 1,
          description: line.description,
        })),
      }),
    );
    await setClosingReversal(tx, instanceId, active.uuid, reversalId);
    reopened.reversalEntryId = reversalId;
  }
  const record = await toClosingRecord(tx, instanceId, reopened, startMonth);
  await audit(tx, instanceId, actor, 'fiscal_year.reopened', { closing: record });
  return record;
}

/**
 * Names the closing behind an entry of source 'closing' (issue 11 §2 document postings): the
 * journal routes refuse to change it and point to the closing page of its year.
 */
export const closingDocument: DocumentResolver = async (_tx, _instanceId, entry) => {
  const year = Number((entry.sourceRef ?? '').slice(0, 4));
  return {
    type: 'year-end closing',
    reference: `fiscal year ${entry.sourceRef ?? ''}`.trim(),
    uuid: null,
    link: Number.isInteger(year) && year > 0 ? `/accounting/close?year=${year}` : '/accounting/close',
  };
};
