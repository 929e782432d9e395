/**
 * Invoice request bodies (spec §3 Invoice / Invoice item, §7.1 /invoice/*), shared by the routes and
 * the web form so both give the same message per field.
 */
import { z } from 'zod';
import { INVOICE_CURRENCIES } from '../invoice.js';
import { isAmountString, toMoney } from '../money.js';
import { validationMessages as m } from '../messages.js';
import { strictObject, zAmount, zCurrencyCode, zDate, zId, zRequiredText, zUuid } from '../validators/common.js';

/**
 * A non-negative decimal string with at most `decimals` fraction digits and `integerDigits` before
 * the point: the NUMERIC column it lands in (migration 0005) would refuse more, with a database text.
 */
const nonNegative = (decimals: number, integerDigits = 18) =>
  zAmount(decimals)
    .refine((value) => !value.startsWith('-'), { error: 'negative numbers are not accepted' })
    .refine((value) => !isAmountString(value, decimals) || value.replace(/^-/, '').split('.')[0]!.replace(/^0+(?=\d)/, '').length <= integerDigits, {
      error: `at most ${integerDigits} digits before the decimal point`,
    });
const optionalAmount = (decimals: number, integerDigits?: number) =>
  z.union([nonNegative(decimals, integerDigits), z.literal(''), z.null()]).optional();

/** Exchange rate: units of the books' currency per unit of the invoice currency, > 0, ≤ 10 decimals. */
export const zFxRate = zAmount(10).refine((value) => isAmountString(value, 10) && toMoney(value).gt(0) && toMoney(value).lt(1_000_000), {
  error: 'the exchange rate must be a number greater than 0 (and below 1 000 000)',
});

/** A VAT rate as a fraction ("0.081"); which rates an invoice may carry is the server's rule. */
const zVatRate = z.string().regex(/^(0(\.\d{1,5})?|1(\.0{1,5})?)$/, { error: 'VAT must be a fraction such as 0.081' });

const itemName = zRequiredText.pipe(z.string().max(200));
/** Quantity, ≤ 4 decimals (NUMERIC(18,4)); at most MAX_AMOUNT like every amount (zAmount). */
const itemQuantity = nonNegative(4);
/** Unit price, ≤ 4 decimals (NUMERIC(20,4)); at most MAX_AMOUNT, and so is quantity × price (invoiceItemProblems). */
const itemPrice = nonNegative(4);

/** Spec §3's item names beside the working form's: label = name, quantity = amount, rate = price. */
export const INVOICE_ITEM_ALIASES = [
  ['name', 'label'],
  ['amount', 'quantity'],
  ['price', 'rate'],
] as const;

/**
 * One invoice line. Spec §3 names an item `label, quantity, rate`; its working form `name, amount
 * (quantity), price`, discount % or absolute. Either name of each pair is accepted (both only when
 * equal); `normalizeInvoiceItem` gives the working form the server stores.
 */
export const invoiceItemSchema = strictObject({
  name: itemName.optional(),
  /** Spec §3 name of `name`. */
  label: itemName.optional(),
  amount: itemQuantity.optional(),
  /** Spec §3 name of `amount` (the quantity). */
  quantity: itemQuantity.optional(),
  price: itemPrice.optional(),
  /** Spec §3 name of `price` (the unit price). */
  rate: itemPrice.optional(),
  /** Percent 0–100. */
  discount: optionalAmount(4, 3).refine((value) => value == null || value === '' || !/^\d+(\.\d+)?$/.test(value) || toMoney(value).lte(100), {
    error: 'the discount cannot exceed 100 %',
  }),
  /** Absolute discount on the line, 2 decimals. */
  discountAbs: optionalAmount(2),
  /** The line's VAT rate (fraction); absent or null: the invoice's rate. */
  vat: z.union([zVatRate, z.null()]).optional(),
  /** Revenue ledger account of the line; absent or null: the account of its VAT rate (SWISS_VAT_ACCOUNTS). */
  account: strictObject({ id: zId }).nullable().optional(),
  /** The invoice's currency (spec §3 working form); another one is refused by the server. */
  currency: zCurrencyCode.optional(),
  /** Informational: the invoice's fxRate governs; set to it on sending. */
  fxRate: zFxRate.optional(),
}).superRefine((item, ctx) => {
  for (const [working, spec] of INVOICE_ITEM_ALIASES) {
    const a = item[working];
    const b = item[spec];
    if (a === undefined && b === undefined) ctx.addIssue({ code: 'custom', path: [working], message: m.fieldMustBeGiven });
    else if (a !== undefined && b !== undefined && a !== b) ctx.addIssue({ code: 'custom', path: [spec], message: `${spec} is another name for ${working}: give one of them` });
  }
});
/** An item as the API accepts it: either name of each pair of `INVOICE_ITEM_ALIASES`. */
export type InvoiceItemWire = z.infer<typeof invoiceItemSchema>;

/** An item in the working form, with `name`, `amount` and `price` always given. */
export type NormalizedInvoiceItem<T extends InvoiceItemWire = InvoiceItemWire> = Omit<T, 'label' | 'quantity' | 'rate' | 'name' | 'amount' | 'price'> & {
  name: string;
  amount: string;
  price: string;
};

/** An item in the working form (what the form builds and the server stores). */
export type InvoiceItemInput = NormalizedInvoiceItem;

/** The working form of an item checked by `invoiceItemSchema` (spec §3 `label`/`quantity`/`rate` → `name`/`amount`/`price`). */
export function normalizeInvoiceItem<T extends InvoiceItemWire>(item: T): NormalizedInvoiceItem<T> {
  const { label, quantity, rate, name, amount, price, ...rest } = item;
  return { ...rest, name: (name ?? label)!, amount: (amount ?? quantity)!, price: (price ?? rate)! };
}

/** Invoice currency: the QR-bill's two (SIX IG v2.3 §4.3.3), with a message naming the refused code. */
export const zInvoiceCurrency = z.enum(INVOICE_CURRENCIES, {
  error: (issue) =>
    issue.input === undefined || issue.input === null
      ? undefined
      : `invoices are in CHF or EUR, the currencies of the Swiss QR-bill${typeof issue.input === 'string' && issue.input ? ` (not ${issue.input.slice(0, 10)})` : ''}`,
});

/**
 * /invoice/insert `data`. `vat` is a fraction: the instance rate or 0.081, 0.026, 0.038, 0.
 * `fxRate`: CHF per 1 EUR for an EUR invoice in CHF books (required then); 1 for the books' currency.
 * `dateDue`: absent or null → invoice date + 30 days; not before the invoice date.
 */
export const invoiceSchema = strictObject({
  company: strictObject({ uuid: zUuid }),
  address: strictObject({ id: zId }),
  paymentProfile: strictObject({ id: zId }),
  vat: zAmount(5).optional(),
  currency: zInvoiceCurrency.optional(),
  fxRate: zFxRate.optional(),
  dateInvoice: zDate,
  dateDue: zDate.nullable().optional(),
  description: z.string().max(500).optional(),
  items: z.array(invoiceItemSchema).max(500).optional(),
});
export type InvoiceInput = z.infer<typeof invoiceSchema>;

/** A row id in a CSV import: a number, or digits as text. */
const csvId = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value),
  z.number({ error: 'must be an integer' }).int({ error: 'must be an integer' }).positive({ error: 'id must be greater than 0' }),
);
const csvText = (max: number) => z.string().trim().max(max, { error: `at most ${max} characters` });

/**
 * One row of `/invoice/import` (one invoice line; rows with the same `invoice` key form one invoice).
 * The customer is `company` (uuid, UID such as CHE-123.456.789, or the exact name) or `companyUuid`.
 * Line fields are those of `invoiceItemSchema`; `account` is a revenue ledger account number.
 */
export const invoiceImportRowSchema = strictObject({
  invoice: zRequiredText.pipe(z.string().max(100)),
  company: csvText(200).optional(),
  companyUuid: zUuid.optional(),
  addressId: csvId.optional(),
  paymentProfileId: csvId.optional(),
  dateInvoice: zDate,
  dateDue: zDate.optional(),
  vat: zVatRate.optional(),
  currency: zInvoiceCurrency.optional(),
  fxRate: zFxRate.optional(),
  description: csvText(500).optional(),
  name: itemName,
  amount: itemQuantity,
  price: itemPrice,
  discount: invoiceItemSchema.shape.discount,
  discountAbs: invoiceItemSchema.shape.discountAbs,
  account: z.string().trim().regex(/^[0-9]{4,10}$/, { error: 'account must be a ledger account number (4 to 10 digits)' }).optional(),
});
export type InvoiceImportRow = z.output<typeof invoiceImportRowSchema>;
