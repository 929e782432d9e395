/**
 * Trial balance, balances at month-ends, the dashboard's account cards and the ledger checks.
 * Balances read the per-month table plus the postings of a partial last month (balance.sql.ts).
 */
import { Money, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { dayBefore, END_OF_TIME, monthEnd, selectClosingTurnovers, selectTurnoversAt, type Turnover } from './balance.sql.js';
import { selectLedgerAccountHeads, type LedgerAccountHead } from './ledger-account.sql.js';
import { countEntries, selectMonthDrift, selectShortEntries, selectUnbalancedEntries } from './checks.sql.js';
import type { CurrencyCode } from '@bilan/domain';

/** Today in Switzerland (YYYY-MM-DD): the books' calendar, whatever the server's time zone. */
export function todayInSwitzerland(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(),
  );
}

// Database sums are NUMERIC text; `new Money` takes any size (toMoney guards user input to 18 digits).
const money = (value: string) => new Money(value);
const balanceOf = (turnover: Turnover) => toFixedAmount(money(turnover.debit).minus(money(turnover.credit)));
const isZero = (value: string) => money(value).isZero();

export type TrialBalanceAccount = {
  id: number;
  number: string;
  name: string;
  currency: CurrencyCode;
  type: { id: number };
  /** Balance (debit − credit) before `dateFrom`; 0.00 without a `dateFrom`. */
  openingBalance: string;
  /** Sum of debit postings from `dateFrom` (or the first posting) to the date, instance currency, 2 decimals. */
  debit: string;
  /** Sum of credit postings in the same range, instance currency, 2 decimals. */
  credit: string;
  /** Balance at the date: openingBalance + debit − credit (debit positive). */
  balance: string;
};

export type TrialBalance = {
  /** The first day of the turnover columns, or null for "since the first posting". */
  dateFrom: string | null;
  date: string;
  /** Accounts with postings on or before `date`, sorted by number. */
  accounts: TrialBalanceAccount[];
  /** Column totals; debit equals credit in balanced books, so the balances total 0.00. */
  totals: { openingBalance: string; debit: string; credit: string; balance: string };
};

const ZERO_TURNOVER: Turnover = { debit: '0', credit: '0' };

/**
 * Trial balance as of `date` (inclusive): every account's debit and credit turnover and its balance.
 * With `dateFrom` (≤ date) the turnover covers dateFrom…date and the balance before it is the
 * opening balance, as a period's trial balance (Saldenliste) shows it; without, the turnover runs
 * from the first posting. Reads whole months from account_period_balance and only the postings of
 * a partial month.
 *
 * With `excludeClosing`, the year-end closing entries (source 'closing') dated dateFrom…date are
 * left out of the turnover and the balance: the figures "before closing" that an income statement
 * or an analysis of a closed year needs. Closing entries before `dateFrom` stay in the opening
 * balance (a closed year's result is in the profit-or-loss account, not in the income accounts).
 */
export async function trialBalance(
  tx: Tx,
  instanceId: string,
  date: string,
  dateFrom: string | null = null,
  options: { excludeClosing?: boolean } = {},
): Promise<TrialBalance> {
  const dates = dateFrom ? [dayBefore(dateFrom), date] : [date];
  const perDate = await selectTurnoversAt(tx, instanceId, dates);
  const closing = perDate[perDate.length - 1]!;
  if (options.excludeClosing) {
    const closingEntries = await selectClosingTurnovers(tx, instanceId, dateFrom ?? '1900-01-01', date);
    for (const [accountId, turnover] of closingEntries) {
      const total = closing.get(accountId) ?? ZERO_TURNOVER;
      closing.set(accountId, {
        debit: money(total.debit).minus(money(turnover.debit)).toFixed(),
        credit: money(total.credit).minus(money(turnover.credit)).toFixed(),
      });
    }
  }
  const opening = dateFrom ? perDate[0]! : new Map<number, Turnover>();
  const active = [...closing].filter(([, t]) => !isZero(t.debit) || !isZero(t.credit));
  const heads = await selectLedgerAccountHeads(
    tx,
    instanceId,
    active.map(([id]) => id),
  );
  const totals = { openingBalance: money('0'), debit: money('0'), credit: money('0'), balance: money('0') };
  const accounts = heads.map((head) => {
    const end = closing.get(head.id)!;
    const start = opening.get(head.id) ?? ZERO_TURNOVER;
    const row = {
      openingBalance: money(start.debit).minus(money(start.credit)),
      debit: money(end.debit).minus(money(start.debit)),
      credit: money(end.credit).minus(money(start.credit)),
      balance: money(end.debit).minus(money(end.credit)),
    };
    for (const key of ['openingBalance', 'debit', 'credit', 'balance'] as const) totals[key] = totals[key].plus(row[key]);
    return {
      id: head.id,
      number: head.number,
      name: head.name,
      currency: head.currency,
      type: { id: head.typeId },
      openingBalance: toFixedAmount(row.openingBalance),
      debit: toFixedAmount(row.debit),
      credit: toFixedAmount(row.credit),
      balance: toFixedAmount(row.balance),
    };
  });
  return {
    dateFrom,
    date,
    accounts,
    totals: {
      openingBalance: toFixedAmount(totals.openingBalance),
      debit: toFixedAmount(totals.debit),
      credit: toFixedAmount(totals.credit),
      balance: toFixedAmount(totals.balance),
    },
  };
}

export type BalancesAtDates = {
  endDates: string[];
  /** Accounts with postings on or before the latest date; `balances[i]` is debit − credit at `endDates[i]`. */
  accounts: { id: number; number: string; name: string; currency: CurrencyCode; balances: string[] }[];
};

/** Each account's balance (debit − credit, 2 decimals) at each end date, in the dates' order. */
export async function balancesAtDates(tx: Tx, instanceId: string, endDates: readonly string[]): Promise<BalancesAtDates> {
  const perDate = await selectTurnoversAt(tx, instanceId, endDates);
  const accountIds = new Set<number>();
  for (const turnovers of perDate) {
    for (const [id, t] of turnovers) if (!isZero(t.debit) || !isZero(t.credit)) accountIds.add(id);
  }
  const heads: LedgerAccountHead[] = accountIds.size ? await selectLedgerAccountHeads(tx, instanceId, [...accountIds]) : [];
  return {
    endDates: [...endDates],
    accounts: heads.map((head) => ({
      id: head.id,
      number: head.number,
      name: head.name,
      currency: head.currency,
      balances: perDate.map((turnovers) => {
        const turnover = turnovers.get(head.id);
        return turnover ? balanceOf(turnover) : '0.00';
      }),
    })),
  };
}

/** The 12 month-ends of `year`, January to December (spec §9 "Dashboard balances"). */
export function monthEndsOf(year: number): string[] {
  return Array.from({ length: 12 }, (_, i) => monthEnd(`${year}-${String(i + 1).padStart(2, '0')}-01`));
}

/** Dashboard account cards: accounts with a non-zero balance at one of the year's month-ends (spec §2.4). */
export async function accountDashboard(tx: Tx, instanceId: string, year: number) {
  const endDates = monthEndsOf(year);
  const { accounts } = await balancesAtDates(tx, instanceId, endDates);
  return { year, endDates, accounts: accounts.filter((account) => account.balances.some((b) => !isZero(b))) };
}

/** Balance (debit − credit, 2 decimals) of one account over the postings dated on or before `date`. */
export async function accountBalanceAt(tx: Tx, instanceId: string, accountId: number, date: string = END_OF_TIME): Promise<string> {
  const [turnovers] = await selectTurnoversAt(tx, instanceId, [date], accountId);
  const turnover = turnovers!.get(accountId);
  return turnover ? balanceOf(turnover) : '0.00';
}

export type LedgerCheck = {
  name: string;
  ok: boolean;
  detail: string;
};

/**
 * Integrity checks of the books: every entry balances with at least two postings, the per-month
 * table equals the postings, and the trial balance's debit equals its credit. The database enforces
 * the first two at commit; these checks prove it on the stored data (and scan every posting, which
 * the balance reports never do).
 */
export async function checkLedger(tx: Tx, instanceId: string): Promise<{ ok: boolean; checks: LedgerCheck[] }> {
  const checks: LedgerCheck[] = [];

  const counts = await countEntries(tx, instanceId, null);
  const unbalanced = await selectUnbalancedEntries(tx, instanceId, null, 5);
  checks.push({
    name: 'journal entries balance',
    ok: unbalanced.length === 0,
    detail: unbalanced.length
      ? `unbalanced: ${unbalanced.map((u) => `entry ${u.id} (debit − credit ${toFixedAmount(money(u.difference))})`).join(', ')}`
      : `${counts.entries} entries with ${counts.lines} postings, each with debit = credit`,
  });

  const short = await selectShortEntries(tx, instanceId, null, 5);
  checks.push({
    name: 'journal entries have two postings',
    ok: short.length === 0,
    detail: short.length ? `fewer than two postings: entry ${short.map((s) => s.id).join(', ')}` : 'every entry has at least two postings',
  });

  const drift = await selectMonthDrift(tx, instanceId, null, 5);
  checks.push({
    name: 'month balances match postings',
    ok: drift.length === 0,
    detail: drift.length
      ? `differs for ${drift.map((d) => `account id ${d.accountId} in ${d.period.slice(0, 7)}`).join(', ')}`
      : 'account_period_balance equals the sum of the postings for every account and month',
  });

  const [totals] = await tx.query<{ debit: string; credit: string }>(
    `SELECT coalesce(sum(debit), 0)::text AS debit, coalesce(sum(credit), 0)::text AS credit
       FROM account_period_balance WHERE instance_id = $1`,
    [instanceId],
  );
  const debit = toFixedAmount(money(totals!.debit));
  const credit = toFixedAmount(money(totals!.credit));
  checks.push({
    name: 'trial balance debit equals credit',
    ok: debit === credit,
    detail: `debit ${debit}, credit ${credit}`,
  });

  return { ok: checks.every((check) => check.ok), checks };
}
