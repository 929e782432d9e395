/**
 * Bill and expense bodies (spec §3 Payable, §7.1 /payable/insert and /payable/update): the `data`
 * of both routes, shared with the web's bill form so both give the same message per field.
 */
import { z } from 'zod';
import { validationMessages as m } from '../messages.js';
import { strictObject, zAmount, zCurrencyCode, zDate, zId, zUuid } from '../validators/common.js';
import { isValidIban } from '../validators/iban.js';
import { zCompanyName } from './company.js';

/** Gross amount above 0 (a zero bill books nothing and cannot be paid). */
const positiveAmount = zAmount(2).refine((value) => !value.startsWith('-') && !/^-?0+(\.0+)?$/.test(value), { error: m.amountPositive });

/** `data` of /payable/insert (and, every field optional, of /payable/update): one bill or staff expense. */
export const payableDataSchema = strictObject({
  type: z.union([z.literal(0), z.literal(1)]).optional().describe('BillType: payable 0 (supplier bill), expense 1 (staff reimbursement)'),
  isExpense: z.boolean().optional().describe('alternative to type'),
  company: strictObject({ uuid: zUuid }).nullish().describe('the supplier (required for type 0)'),
  companyFinance: strictObject({ id: zId }).nullish().describe("the supplier's payment profile (IBAN or QR-IBAN) to pay to"),
  date: zDate.describe('bill date YYYY-MM-DD (booking date)'),
  dueDate: zDate.nullish(),
  amount: positiveAmount.describe('gross amount in `currency`, 2 decimals'),
  vatAmount: zAmount(2)
    .refine((value) => !value.startsWith('-'), { error: m.negativeNotAccepted })
    .optional()
    .describe('input VAT included in amount; default derived from vatRate (amount × rate / (1 + rate)), else 0'),
  vatRate: z.enum(['0.081', '0.026', '0.038', '0']).nullish().describe('VAT rate of the bill as a fraction: 8.1 %, 2.6 %, 3.8 % or 0 %'),
  currency: zCurrencyCode.optional().describe('default: the instance currency'),
  exchangeRate: zAmount(10).optional().describe('instance-currency units per unit of currency; required for a foreign currency'),
  expenseAccount: strictObject({ id: zId }).nullish().describe("default: the account of the supplier's last approved bill, else 4000 (bills) / 6500 (expenses)"),
  referenceNumber: z.string().max(40).nullish().describe('QR reference (27 digits, needs a QR-IBAN) or creditor reference RF…'),
  message: z.string().max(140).nullish(),
  description: z.string().max(500).optional(),
});
export type PayableDataInput = z.input<typeof payableDataSchema>;
export type PayableDataOutput = z.output<typeof payableDataSchema>;

/**
 * A person a staff expense is owed to who is not on file yet (issue 16 §4, `employee` of
 * /payable/insert and /payable/update): a name as a company's (the person becomes a company, as
 * the salary import's employees do, decision 026) and the IBAN the expense is refunded to.
 */
export const payableEmployeeSchema = strictObject({
  name: zCompanyName,
  iban: z
    .string({ error: m.ibanMustNotBeEmpty })
    .trim()
    .min(1, { error: m.ibanMustNotBeEmpty })
    // An empty IBAN has its own message above, not also 'wrongly formatted'.
    .refine((iban) => iban === '' || isValidIban(iban), { error: m.ibanWronglyFormatted }),
});
export type PayableEmployee = z.infer<typeof payableEmployeeSchema>;

/**
 * Rules across fields of a bill or expense that the object schema cannot state without losing
 * `.partial()` for updates: an expense (type 1) needs its description, the text its journal entry
 * and its payment carry (issue 16 §4). Field messages keyed by `data` path; empty when none.
 */
export function payableDataIssues(data: { type?: 0 | 1 | undefined; isExpense?: boolean | undefined; description?: string | undefined }): Record<string, string> {
  const isExpense = data.type === undefined ? data.isExpense === true : data.type === 1;
  return isExpense && !data.description?.trim() ? { description: m.expenseDescriptionRequired } : {};
}

/**
 * Whether a bill or expense can sensibly be booked to ledger account `number` (issue 16 §4): the
 * expense classes 4–6 of the Swiss SME chart (material and goods, personnel, other operating
 * expenses) and the fixed assets a purchase capitalises — 15 mobile (1510 Mobiliar, 1520
 * Büromaschinen, 1530 Fahrzeuge…), 16 immobile, 17 intangible (Kontenrahmen KMU).
 */
export function isPurchaseAccount(number: string): boolean {
  return /^[456]\d{3,}$/.test(number) || /^1[567]\d{2,}$/.test(number);
}
