import { toMoney } from '@bilan/domain';
import type { AccountSnapshot } from './api';

/**
 * The average rate at which the account's own-currency holding is booked (books' currency per unit,
 * 4 decimals): the base value of the own-currency postings, (sum_base − sum_base_trade), divided by
 * that holding, sum_native_net. Null without a holding. What a revaluation at the closing rate is
 * measured against (Swiss CO Art. 960: foreign-currency assets at the closing rate at most).
 */
export function averageBookedRate(snapshot: Pick<AccountSnapshot, 'sum_base' | 'sum_base_trade' | 'sum_native_net'>): string | null {
  const native = toMoney(snapshot.sum_native_net);
  if (native.isZero()) return null;
  return toMoney(snapshot.sum_base).minus(toMoney(snapshot.sum_base_trade)).dividedBy(native).toFixed(4);
}
