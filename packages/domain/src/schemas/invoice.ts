/**
 * Invoice request bodies (spec §3 Invoice / Invoice item, §7.1 /invoice/*), shared by the routes and
 * the web form so both give the same message per field.
 */
import { z } from 'zod';
import { toMoney } from '../money.js';
import { strictObject, zAmount, zCurrencyCode, zDate, zId, zRequiredText, zUuid } from '../validators/common.js';

const nonNegative = (decimals: number) =>
  zAmount(decimals).refine((value) => !value.startsWith('-'), { error: 'negative numbers are not accepted' });
const optionalAmount = (decimals: number) =>
  z.union([nonNegative(decimals), z.literal(''), z.null()]).optional();

/** One invoice line (working form of spec §3): name, amount (quantity), price, discount % or absolute. */
export const invoiceItemSchema = strictObject({
  name: zRequiredText.pipe(z.string().max(200)),
  /** Quantity, ≤ 4 decimals. */
  amount: nonNegative(4),
  /** Unit price, ≤ 4 decimals. */
  price: nonNegative(4),
  /** Percent 0–100. */
  discount: optionalAmount(4).refine((value) => value == null || value === '' || !/^\d+(\.\d+)?$/.test(value) || toMoney(value).lte(100), {
    error: 'the discount cannot exceed 100 %',
  }),
  /** Absolute discount on the line, 2 decimals. */
  discountAbs: optionalAmount(2),
  currency: zCurrencyCode.optional(),
  fxRate: zAmount(10).optional(),
});
export type InvoiceItemInput = z.infer<typeof invoiceItemSchema>;

/** /invoice/insert `data`. `vat` is a fraction: the instance rate or 0.081, 0.026, 0.038, 0. */
export const invoiceSchema = strictObject({
  company: strictObject({ uuid: zUuid }),
  address: strictObject({ id: zId }),
  paymentProfile: strictObject({ id: zId }),
  vat: zAmount(5).optional(),
  currency: z.enum(['CHF', 'EUR']).optional(),
  dateInvoice: zDate,
  dateDue: zDate.nullable().optional(),
  description: z.string().max(500).optional(),
  items: z.array(invoiceItemSchema).max(500).optional(),
});
export type InvoiceInput = z.infer<typeof invoiceSchema>;
