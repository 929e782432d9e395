import { describe, expect, it } from 'vitest';
import { isPurchaseAccount } from './payable.js';

describe('isPurchaseAccount (issue 16 §4)', () => {
  it('takes the expense classes 4–6 and capitalised fixed assets 15xx–17xx', () => {
    for (const number of ['4000', '4200', '5000', '5800', '6000', '6500', '6570', '1500', '1510', '1520', '1600', '1700']) expect(isPurchaseAccount(number), number).toBe(true);
  });
  it('refuses bank, receivables, liabilities, revenue and the rest of class 1', () => {
    for (const number of ['1000', '1020', '1100', '1170', '1400', '2000', '2250', '3200', '7000', '8000', '9200', '15', '']) expect(isPurchaseAccount(number), number).toBe(false);
  });
});
