import { describe, expect, it } from 'vitest';
import { invoiceItemSchema } from './invoice.js';

// The discount's 0–100 % refinement runs even when the amount format already failed; it must not
// throw on text that is no number (the API answered 500 to `discount: "x"`).
describe('invoiceItemSchema discount', () => {
  const line = { name: 'Workshop', amount: '1', price: '10' };

  it('refuses a non-numeric discount with a field error, not an exception', () => {
    const result = invoiceItemSchema.safeParse({ ...line, discount: 'x' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain('discount');
  });

  it('refuses more than 100 % and accepts 0–100, empty and null', () => {
    expect(invoiceItemSchema.safeParse({ ...line, discount: '100.5' }).error?.issues[0]?.message).toBe('the discount cannot exceed 100 %');
    for (const discount of ['0', '12.5', '100', '', null]) expect(invoiceItemSchema.safeParse({ ...line, discount }).success).toBe(true);
  });
});
