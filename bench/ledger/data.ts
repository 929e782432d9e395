/**
 * Deterministic synthetic ledger: entry k (0-based) of a data set of `count` two-line entries
 * debits account k mod n and credits account (7k + 3) mod n (different for an even n), with an
 * amount of ((7919 k) mod 500000 + 1) cents, dated in order across the date range. The bulk load of
 * the balances benchmark computes the same formulas in SQL.
 */

export interface Account {
  id: number;
  number: string;
}

/** `count` accounts spread over the chart (4-digit numbers), sorted by number; `count` is made even. */
export function pickAccounts(accounts: Map<string, number>, count: number): Account[] {
  const all = [...accounts]
    .filter(([number]) => /^\d{4}$/.test(number))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([number, id]) => ({ number, id }));
  const wanted = Math.min(all.length - (all.length % 2), count - (count % 2));
  if (wanted < 2) throw new Error('the chart has fewer than two accounts');
  return Array.from({ length: wanted }, (_, i) => all[Math.floor((i * all.length) / wanted)]!);
}

export const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

export interface SyntheticEntry {
  index: number;
  key: string;
  date: string;
  description: string;
  debit: Account;
  credit: Account;
  /** Decimal string with 2 decimals. */
  amount: string;
}

export const amountCents = (k: number): number => ((k * 7919) % 500_000) + 1;

export const formatCents = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Entry `k` of `count` entries spread over `days` days from `from`. */
export function syntheticEntry(k: number, count: number, accounts: readonly Account[], from: string, days: number): SyntheticEntry {
  const n = accounts.length;
  return {
    index: k,
    key: `B${k}`,
    date: addDays(from, Math.floor((k * days) / count)),
    description: `Bench entry ${k}`,
    debit: accounts[k % n]!,
    credit: accounts[(k * 7 + 3) % n]!,
    amount: formatCents(amountCents(k)),
  };
}

export function* syntheticEntries(count: number, accounts: readonly Account[], from: string, to: string): Generator<SyntheticEntry> {
  const days = daysBetween(from, to);
  for (let k = 0; k < count; k += 1) yield syntheticEntry(k, count, accounts, from, days);
}
