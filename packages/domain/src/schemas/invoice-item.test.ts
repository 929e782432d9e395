import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../validators/common.js';
import { invoiceImportRowSchema, invoiceItemSchema, invoiceSchema } from './invoice.js';

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

describe('invoice schemas: limits the database would otherwise refuse with its own text', () => {
  const line = { name: 'Workshop', amount: '1', price: '10' };
  const message = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }, path: string) =>
    result.error?.issues.find((issue) => issue.path.join('.') === path)?.message;

  it('bounds quantity, price and discounts to their columns', () => {
    const tooLarge = 'amount must be between -999999999999.99 and 999999999999.99';
    expect(message(invoiceItemSchema.safeParse({ ...line, amount: '1000000000000' }), 'amount')).toBe(tooLarge);
    expect(invoiceItemSchema.safeParse({ ...line, amount: '999999999999.99' }).success).toBe(true);
    expect(message(invoiceItemSchema.safeParse({ ...line, price: '12345678901234567' }), 'price')).toBe(tooLarge);
    expect(message(invoiceItemSchema.safeParse({ ...line, price: '999999999999.9901' }), 'price')).toBe(tooLarge);
    expect(message(invoiceItemSchema.safeParse({ ...line, discountAbs: '-1' }), 'discountAbs')).toBe('negative numbers are not accepted');
  });

  it('fxRate > 0, currency CHF or EUR with a message naming the refused one', () => {
    const head = { company: { uuid: '00000000-0000-4000-8000-000000000001' }, address: { id: 1 }, paymentProfile: { id: 1 }, dateInvoice: '2025-01-01' };
    expect(message(invoiceSchema.safeParse({ ...head, fxRate: '0' }), 'fxRate')).toBe('the exchange rate must be a number greater than 0 (and below 1 000 000)');
    expect(message(invoiceSchema.safeParse({ ...head, currency: 'GBP' }), 'currency')).toBe('invoices are in CHF or EUR, the currencies of the Swiss QR-bill (not GBP)');
    expect(invoiceSchema.safeParse({ ...head, currency: 'EUR', fxRate: '0.9321' }).success).toBe(true);
  });

  it('an import row takes ids as text and refuses unknown columns', () => {
    const row = { invoice: 'A', company: 'Muster AG', dateInvoice: '2025-01-01', ...line };
    expect(invoiceImportRowSchema.parse({ ...row, addressId: '12' }).addressId).toBe(12);
    expect(message(invoiceImportRowSchema.safeParse({ ...row, addressId: 'x' }), 'addressId')).toBe('must be an integer');
    expect(fieldErrors(invoiceImportRowSchema.safeParse({ ...row, colour: 'red' }).error!)).toEqual({ colour: 'this key cannot be included' });
    expect(message(invoiceImportRowSchema.safeParse({ ...row, account: '12' }), 'account')).toBe('account must be a ledger account number (4 to 10 digits)');
  });
});
