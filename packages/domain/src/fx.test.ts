import { describe, expect, it } from 'vitest';
import { FX_GAIN_ACCOUNT, FX_LOSS_ACCOUNT, isImplausibleFxDifference, realizedFxDifference, settlementRate } from './fx.js';
import { toFixedAmount, toMoney } from './money.js';

describe('realized exchange differences', () => {
  it('a receivable settled for less is a loss (debit 6942), for more a gain (credit 6952)', () => {
    expect(realizedFxDifference('receivable', '950.00', '940.00')).toEqual({ account: FX_LOSS_ACCOUNT, direction: 1, amount: '10.00' });
    expect(realizedFxDifference('receivable', '950.00', '960.05')).toEqual({ account: FX_GAIN_ACCOUNT, direction: -1, amount: '10.05' });
  });

  it('a payable settled for more is a loss, for less a gain', () => {
    expect(realizedFxDifference('payable', '950.00', '960.00')).toEqual({ account: FX_LOSS_ACCOUNT, direction: 1, amount: '10.00' });
    expect(realizedFxDifference('payable', '950.00', '949.99')).toEqual({ account: FX_GAIN_ACCOUNT, direction: -1, amount: '0.01' });
  });

  it('no difference, no line', () => {
    expect(realizedFxDifference('payable', '950.00', '950')).toBeNull();
  });

  it('the difference always balances the settlement entry', () => {
    // Receivable: debit bank settled (+ debit loss) = credit receivable booked (+ credit gain).
    for (const [booked, settled] of [['1000.00', '987.65'], ['1000.00', '1012.35'], ['0.05', '0.04']] as const) {
      const diff = realizedFxDifference('receivable', booked, settled)!;
      const debits = toMoney(settled).plus(diff.direction === 1 ? diff.amount : '0');
      const credits = toMoney(booked).plus(diff.direction === -1 ? diff.amount : '0');
      expect(debits.eq(credits)).toBe(true);
    }
  });
});

describe('settlementRate', () => {
  it('gives the rate whose conversion rounds back to the settled amount', () => {
    for (const [original, settled] of [['1000.00', '940.00'], ['1234.56', '1161.49'], ['0.01', '0.01'], ['99999999.99', '93999999.99'], ['3', '2.83']]) {
      const rate = settlementRate(original!, settled!);
      expect(rate).not.toBeNull();
      expect(toFixedAmount(toMoney(original!).times(rate!))).toBe(toFixedAmount(settled!));
    }
    expect(settlementRate('1000', '940')).toBe('0.94');
  });

  it('refuses zero amounts', () => {
    expect(settlementRate('0', '10')).toBeNull();
    expect(settlementRate('10', '0')).toBeNull();
  });
});

describe('isImplausibleFxDifference', () => {
  it('flags a difference above a quarter of the booked amount', () => {
    expect(isImplausibleFxDifference('1000.00', '1250.00')).toBe(false);
    expect(isImplausibleFxDifference('1000.00', '1250.01')).toBe(true);
    expect(isImplausibleFxDifference('1000.00', '9400.00')).toBe(true);
    expect(isImplausibleFxDifference('1000.00', '749.99')).toBe(true);
  });
});
