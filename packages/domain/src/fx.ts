/**
 * Realized exchange differences (Kursdifferenzen): a receivable or payable in another currency is
 * booked at the document's rate and settled at the rate of the payment day. What the bank actually
 * credited or debited in the books' currency differs, and the difference is income or expense of
 * the period it is realized in (Swiss CO art. 960 ff.: valuation at the transaction's rate; Swiss
 * SME chart, Kontenrahmen KMU: 6942 Kursverluste, 6952 Kursgewinne).
 */
import type { ChartAccount } from './invoice.js';
import { toFixedAmount, toMoney, type Money } from './money.js';

/** Swiss SME chart accounts of realized exchange differences. */
export const FX_LOSS_ACCOUNT: ChartAccount = { number: '6942', name: 'Kursverluste' };
export const FX_GAIN_ACCOUNT: ChartAccount = { number: '6952', name: 'Kursgewinne' };

/**
 * The largest share an exchange difference may take of the booked amount before we assume a typo
 * rather than a market move: CHF/EUR moved about 15 % on 15 January 2015, the largest day on record.
 */
export const FX_DIFFERENCE_LIMIT = '0.25';

export interface FxDifference {
  account: ChartAccount;
  /** +1 debit (a loss), -1 credit (a gain). */
  direction: 1 | -1;
  /** Absolute difference in the books' currency, 2 decimals. */
  amount: string;
}

/**
 * The exchange difference of settling a document: `booked` is what the receivable or payable holds
 * in the books' currency (document amount × document rate), `settled` what reached or left the
 * bank in the books' currency, both 2 decimals. A receivable settled for more, or a payable for
 * less, is a gain (credit 6952); the other way round a loss (debit 6942). Null when equal.
 */
export function realizedFxDifference(kind: 'receivable' | 'payable', booked: string, settled: string): FxDifference | null {
  const difference = toMoney(settled).minus(toMoney(booked));
  if (difference.isZero()) return null;
  const gain = kind === 'receivable' ? difference.isPositive() : difference.isNegative();
  return gain
    ? { account: FX_GAIN_ACCOUNT, direction: -1, amount: toFixedAmount(difference.abs()) }
    : { account: FX_LOSS_ACCOUNT, direction: 1, amount: toFixedAmount(difference.abs()) };
}

/**
 * The rate of a settlement, books' currency per unit, 10 decimals (the journal's precision), such
 * that `originalAmount` × rate rounds half-up to `settled` at 2 decimals. Null when no rate of 10
 * decimals does (amounts beyond 10^8 units), so the caller posts the base amount alone.
 */
export function settlementRate(originalAmount: string, settled: string): string | null {
  const original = toMoney(originalAmount);
  if (original.lte(0)) return null;
  const rate = toMoney(settled).dividedBy(original).toDecimalPlaces(10);
  if (rate.lte(0)) return null;
  return toFixedAmount(original.times(rate)) === toFixedAmount(toMoney(settled)) ? rate.toFixed() : null;
}

/** True when the difference is more than FX_DIFFERENCE_LIMIT of the booked amount (likely a typo). */
export function isImplausibleFxDifference(booked: string, settled: string): boolean {
  const base = toMoney(booked);
  if (base.isZero()) return !toMoney(settled).isZero();
  return toMoney(settled).minus(base).abs().dividedBy(base.abs()).gt(toMoney(FX_DIFFERENCE_LIMIT));
}

/**
 * How far a converted amount may be from the booked one for a match without a person: 5 %, a
 * market move between invoicing and payment. Beyond it a short or over payment is likelier than an
 * exchange difference, so the statement line waits for a person (who may still book it, up to
 * FX_DIFFERENCE_LIMIT).
 */
export const FX_MATCH_TOLERANCE = '0.05';

/**
 * Relative distance of the settled amount from the booked one, as a share of the settled amount
 * (what the bank shows), or null when it is beyond FX_MATCH_TOLERANCE. Both 2-decimal strings in
 * the books' currency; `settled` > 0.
 */
export function fxMatchDistance(booked: string, settled: string): Money | null {
  const bank = toMoney(settled);
  if (bank.lte(0)) return null;
  const off = toMoney(booked).minus(bank).abs().dividedBy(bank);
  return off.lte(toMoney(FX_MATCH_TOLERANCE)) ? off : null;
}
