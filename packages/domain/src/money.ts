/**
 * Exact decimal arithmetic for money (DESIGN.md "money"). Amounts travel as decimal strings such as
 * "1994.75"; they are never turned into a binary float. Amounts in a ledger have 2 decimals (cents
 * or Rappen) unless stated otherwise.
 */
import { Decimal } from 'decimal.js';

/** A private Decimal constructor so the global one's settings never leak in or out. */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -30, toExpPos: 40 });
export type Money = Decimal;

/** Plain decimal notation: optional minus, digits, optional fraction. No exponent, no spaces, no thousands separators. */
const AMOUNT_PATTERN = /^-?\d{1,18}(\.\d{1,12})?$/;

/** True when `value` is a decimal string with at most `maxDecimals` fraction digits. */
export function isAmountString(value: unknown, maxDecimals = 2): value is string {
  if (typeof value !== 'string' || !AMOUNT_PATTERN.test(value)) return false;
  const fraction = value.split('.')[1];
  return fraction === undefined || fraction.length <= maxDecimals;
}

/**
 * The largest amount any input may carry, either sign (issue 11 §5). The amount columns are
 * numeric(20,2) (journal_line.amount, payable.amount, bank lines; < 10^18) and the per-period
 * balances numeric(22,2) (< 10^20): with inputs below 10^12, a million postings of the maximum on
 * one account still fit a column, so no sum that a report or a later posting forms can overflow
 * and turn a page into a 500. 999 billion is far above any plausible amount of an SME's books.
 */
export const MAX_AMOUNT = '999999999999.99';
const MAX_AMOUNT_VALUE = new Money(MAX_AMOUNT);

/** True when the decimal string `value` lies within ±MAX_AMOUNT. */
export function isWithinAmountBound(value: string | Decimal): boolean {
  return toMoney(value).abs().lte(MAX_AMOUNT_VALUE);
}

/**
 * Parses an exact amount. Accepts a decimal string or a Decimal; a JS number is accepted only when
 * it is a safe integer (anything else may already carry float error). Throws RangeError otherwise.
 */
export function toMoney(value: string | number | Decimal): Decimal {
  // Decimals are immutable: one of ours needs no copy (a list's totals made one per step, issue 18 §2).
  if (value instanceof Money) return value;
  if (Decimal.isDecimal(value)) return new Money(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`amount ${value} is not an exact decimal; send it as a string`);
    return new Money(value);
  }
  if (!AMOUNT_PATTERN.test(value)) throw new RangeError(`"${value}" is not a decimal amount`);
  return new Money(value);
}

/** Sum of amounts, exact. */
export function sumMoney(values: Iterable<string | Decimal>): Decimal {
  let total = new Money(0);
  for (const value of values) total = total.plus(toMoney(value));
  return total;
}

const MINUS = 0x2d;
const NEGATIVE_ZERO = /^-0(\.0+)?$/;

/** The amount as a string with exactly `decimals` fraction digits, half-up rounded. "-0.00" becomes "0.00". */
export function toFixedAmount(value: string | Decimal, decimals = 2): string {
  const fixed = toMoney(value).toFixed(decimals, Decimal.ROUND_HALF_UP);
  return fixed.charCodeAt(0) === MINUS && NEGATIVE_ZERO.test(fixed) ? fixed.slice(1) : fixed;
}

/**
 * Rounds to the nearest 0.05 (5 Rappen), the smallest coin in circulation in Switzerland; Swiss
 * invoices round cash totals this way (usage, e.g. Bexio/Banana "Rundung auf 5 Rappen").
 */
export function roundTo5Rappen(value: string | Decimal): Decimal {
  return toMoney(value).times(20).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).dividedBy(20);
}
