import { describe, expect, it } from 'vitest';
import { averageBookedRate } from './account-snapshot';

describe('averageBookedRate', () => {
  it('divides the base value of the own-currency postings by the holding, 4 decimals half-up', () => {
    // 1300.00 EUR booked at 1229.87 CHF (1239.87 less 10.00 booked in CHF): 0.946053… → 0.9461.
    expect(averageBookedRate({ sum_base: '1239.87', sum_base_trade: '10.00', sum_native_net: '1300.00' })).toBe('0.9461');
    expect(averageBookedRate({ sum_base: '-95.00', sum_base_trade: '0.00', sum_native_net: '-100.00' })).toBe('0.9500');
  });

  it('is null without a holding in the account currency', () => {
    expect(averageBookedRate({ sum_base: '10.00', sum_base_trade: '10.00', sum_native_net: '0.00' })).toBeNull();
  });
});
