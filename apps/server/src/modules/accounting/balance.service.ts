/**
 * Trial balance, balances at month-ends, the dashboard's account cards and the ledger checks.
 * Balances read the per-month table plus the postings of a partial last month (balance.sql.ts).
 */
import { Money, toFixedAmount, todayInSwitzerland } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { dayBefore, END_OF_TIME, monthEnd, selectClosingTurnovers, selectSnapshotSums, selectTurnoversAt, type Turnover } from './balance.sql.js';
import { trimDecimal } from './journal-entry.sql.js';
import { invalidField } from './accounting.errors.js';
import { selectLedgerAccountHeads, type LedgerAccountHead } from './ledger-account.sql.js';
import { scanEntries, selectMonthDrift } from './checks.sql.js';
import type { CurrencyCode } from '@bilan/domain';

/** Today in Switzerland (YYYY-MM-DD): the books' calendar, shared with the web (@bilan/domain). */
export { todayInSwitzerland };

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

/**
 * The 12 month-ends of the year that starts in month `startMonth` of `year`: January to December by
 * default (spec §9 "Dashboard balances": "ending 31 December of the chosen year"); with a July start,
 * 2025-07-31 … 2026-06-30 (the fiscal year 2025/26, issue 12 §3).
 */
export function monthEndsOf(year: number, startMonth = 1): string[] {
  return Array.from({ length: 12 }, (_, i) => {
    const month = startMonth - 1 + i;
    return monthEnd(`${year + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}-01`);
  });
}

/**
 * Dashboard account cards (spec §2.4 "Account cards for ledger accounts with a non-zero balance",
 * §9 "12 month-end dates ending 31 December of the chosen year", or of the fiscal year `year` that
 * starts in `startMonth`): the 12 month-end balances of the
 * accounts whose balance at the year's end — the figure the card shows — is not zero. An account
 * that moved during the year and ends it at zero (a cleared suspense account, an income account
 * after closing) has no card.
 */
export async function accountDashboard(tx: Tx, instanceId: string, year: number, startMonth = 1) {
  const endDates = monthEndsOf(year, startMonth);
  const { accounts } = await balancesAtDates(tx, instanceId, endDates);
  return { year, endDates, accounts: accounts.filter((account) => !isZero(account.balances[account.balances.length - 1]!)) };
}

/** Balance (debit − credit, 2 decimals) of one account over the postings dated on or before `date`. */
export async function accountBalanceAt(tx: Tx, instanceId: string, accountId: number, date: string = END_OF_TIME): Promise<string> {
  const [turnovers] = await selectTurnoversAt(tx, instanceId, [date], accountId);
  const turnover = turnovers!.get(accountId);
  return turnover ? balanceOf(turnover) : '0.00';
}

/**
 * Account balance snapshot (spec §3): one account's balance at `date_snapshot` in the books' currency
 * and in the account's own currency, for accounts kept in another currency (an EUR bank account in
 * CHF books). Sums are signed, debit positive. A posting is "trade" when its currency is not the
 * account's: an exchange difference or revaluation booked in the books' currency on an EUR account,
 * a conversion booked in a third currency, or an EUR document paid into a CHF account.
 */
export type AccountSnapshot = {
  account_id: number;
  account_name: string;
  account_number: string;
  /** The account's currency as the spec's Currency id (CHF 1, EUR 2, …). */
  account_currency_id: number;
  date_snapshot: string;
  /** Balance in the books' currency over every posting (the trial balance's figure), 2 decimals. */
  sum_base: string;
  /** The part of sum_base from trade postings (currency other than the account's), 2 decimals. */
  sum_base_trade: string;
  /**
   * Balance in the account's currency from the postings' original amounts: a posting in the
   * account's currency counts its original amount; on an account kept in the books' currency every
   * posting counts its base amount; a trade posting on a foreign-currency account counts 0 (no rate
   * to the account's currency is recorded, so none is invented). At least 2, at most 10 decimals.
   */
  sum_native: string;
  /** The part of sum_native from trade postings (0 on a foreign-currency account, see sum_native). */
  sum_native_trade: string;
  /**
   * sum_native − sum_native_trade: the account's own-currency holding from postings in that
   * currency only — on an EUR bank account the EUR balance to agree with the bank statement.
   */
  sum_native_net: string;
};

const nativeAmount = (value: string) => trimDecimal(money(value).toFixed(), 2);

/**
 * The balance snapshot of every account with postings dated on or before `date`, or of the given
 * accounts among them, sorted by number (fields: AccountSnapshot). Exact: NUMERIC sums, no rounding
 * but the base amounts' 2 decimals. 400 `accounts.N` for an id that is not one of the instance's
 * ledger accounts.
 */
export async function accountSnapshots(tx: Tx, instanceId: string, date: string, accountIds: readonly number[] | null = null): Promise<AccountSnapshot[]> {
  if (accountIds) {
    const known = new Set((await selectLedgerAccountHeads(tx, instanceId, accountIds)).map((head) => head.id));
    const unknown = accountIds.findIndex((accountId) => !known.has(accountId));
    if (unknown >= 0) throw invalidField(`accounts.${unknown}`, `ledger account ${accountIds[unknown]} not found`);
  }
  const rows = await selectSnapshotSums(tx, instanceId, date, accountIds);
  return rows.map((row) => ({
    account_id: row.account_id,
    account_name: row.account_name,
    account_number: row.account_number,
    account_currency_id: row.account_currency_id,
    date_snapshot: date,
    sum_base: toFixedAmount(money(row.sum_base)),
    sum_base_trade: toFixedAmount(money(row.sum_base_trade)),
    sum_native: nativeAmount(row.sum_native),
    sum_native_trade: nativeAmount(row.sum_native_trade),
    sum_native_net: nativeAmount(money(row.sum_native).minus(money(row.sum_native_trade)).toFixed()),
  }));
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

  const { entries, lines, unbalanced, short } = await scanEntries(tx, instanceId, null, 5);
  checks.push({
    name: 'journal entries balance',
    ok: unbalanced.length === 0,
    detail: unbalanced.length
      ? `unbalanced: ${unbalanced.map((u) => `entry ${u.id} (debit − credit ${toFixedAmount(money(u.difference))})`).join(', ')}`
      : `${entries} entries with ${lines} postings, each with debit = credit`,
  });

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
