/** Journal entry body (spec §3 "Journal entry", §5 entries; docs/api.md entry/insert and entry/update). */
import { z } from 'zod';
import { DebitCredit } from '../enums.js';
import { validationMessages as m } from '../messages.js';
import { Money, isAmountString, toMoney, type Money as MoneyValue } from '../money.js';
import { ruleError, strictObject, whenFieldsValid, zAmount, zCurrencyCode, zDate, zId } from '../validators/common.js';
import { VAT_CODE_PATTERN, VAT_ENTRIES } from '../vat.js';

const JOURNAL_DESCRIPTION_MAX = 500;

/**
 * Debit minus credit of entry lines, Σ amount × direction (spec §3: absolute amount plus direction,
 * +1 debit, −1 credit), exact, with at least 2 decimals: '0.00' for a balanced entry.
 * Throws RangeError for a direction other than 1 or −1 or a non-amount.
 */
export function journalEntryDifference(
  lines: Iterable<{ readonly amount: string | MoneyValue; readonly direction: number }>,
): string {
  let difference = new Money(0);
  for (const { amount, direction } of lines) {
    if (direction !== DebitCredit.debit && direction !== DebitCredit.credit) {
      throw new RangeError(`direction ${direction} must be 1 (debit) or -1 (credit)`);
    }
    difference = difference.plus(toMoney(amount).times(direction));
  }
  if (difference.isZero()) difference = new Money(0);
  return difference.toFixed(Math.max(2, difference.decimalPlaces()));
}

const isPositiveDecimal = (value: string, maxDecimals: number): boolean =>
  isAmountString(value, maxDecimals) && new Money(value).greaterThan(0);

/** One line of a journal entry: account, absolute amount with a direction, optional foreign currency side. */
export const journalLineSchema = strictObject({
  account: strictObject({ id: zId }),
  // zod runs refinements after a failed format check too: the guard keeps 'x' from reaching Money.
  amount: zAmount(2).refine((amount) => !isAmountString(amount, 2) || new Money(amount).greaterThan(0), { error: m.amountPositive }),
  direction: z.literal([DebitCredit.debit, DebitCredit.credit], { error: ruleError(m.directionInvalid) }),
  originalAmount: zAmount(10).nullish(),
  exchangeRate: z
    .string()
    .refine((rate) => isPositiveDecimal(rate, 10), { error: m.exchangeRateInvalid })
    .nullish(),
  currency: zCurrencyCode.nullish(),
  description: z.string().max(JOURNAL_DESCRIPTION_MAX, { error: m.descriptionTooLong }).nullish(),
  /** A VAT code of the instance (decision 019): the server splits the line into base and tax. */
  vatCode: z.string().regex(VAT_CODE_PATTERN, { error: 'a VAT code has 1 to 12 capital letters, digits, - or _' }).nullish(),
  /** Whether `amount` includes the tax; default the code's. Only with `vatCode`. */
  vatEntry: z.enum(VAT_ENTRIES, { error: ruleError('expected gross or net') }).nullish(),
});
export type JournalLineInput = z.infer<typeof journalLineSchema>;

/**
 * Journal entry: date, description, at least two lines whose debits equal their credits exactly
 * (double entry; the database's deferred trigger enforces the same, DESIGN.md "invariants"). With a
 * VAT code on a line the check moves to the postings after the VAT split (a net amount gets its tax
 * added), which needs the code's rate: the server checks it, the entry form previews it.
 */
export const journalEntrySchema = strictObject({
  dateLedger: zDate,
  description: z.string().max(JOURNAL_DESCRIPTION_MAX, { error: m.descriptionTooLong }),
  entryAccounts: z.array(journalLineSchema).min(2, { error: m.journalEntryTwoLines }),
}).superRefine(
  (entry, ctx) => {
    // `when` lets a malformed body (e.g. an array) through to here: only well-formed lines are summed.
    if (!Array.isArray(entry.entryAccounts)) return;
    entry.entryAccounts.forEach((line, index) => {
      if (line.vatEntry != null && line.vatCode == null) {
        ctx.addIssue({ code: 'custom', message: 'vatEntry is given only with a vatCode', path: ['entryAccounts', index, 'vatEntry'], input: line.vatEntry });
      }
    });
    if (entry.entryAccounts.some((line) => line.vatCode != null)) return;
    if (journalEntryDifference(entry.entryAccounts) !== '0.00') {
      ctx.addIssue({ code: 'custom', message: m.debitCreditUnequal, path: ['entryAccounts'], input: entry.entryAccounts });
    }
  },
  { when: whenFieldsValid('entryAccounts') },
);
export type JournalEntryInput = z.infer<typeof journalEntrySchema>;
